import type { Episode, Message } from '../../core/episode';
import { toolCallsOf, toolResultOf } from './toolCalls';
import { maxMessageChars, type MessageView, type MessageWindow } from './viewTypes';

/**
 * Messages `[offset, offset + limit)` of an episode (fewer at its end, none past it), each text cut
 * at `maxChars` characters (never inside a surrogate pair) and marked `truncated`. Token
 * attribution is included only when the message carries tokens and attribution of equal length;
 * tool calls and a JSON tool result only when the whole text was sent (a cut one would not parse).
 */
export function messageWindow(
  episode: Episode,
  offset: number,
  limit: number,
  maxChars = maxMessageChars,
): MessageWindow {
  const end = Math.min(episode.messages.length, offset + Math.max(0, limit));
  const messages: MessageView[] = [];
  for (let seq = Math.max(0, offset); seq < end; seq++) {
    const message = episode.messages[seq];
    if (message) messages.push(messageView(message, seq, maxChars));
  }
  return { offset, messages };
}

function messageView(message: Message, seq: number, maxChars: number): MessageView {
  const content = message.content;
  const truncated = content.length > maxChars;
  const { tokens, attribution } = message;
  return {
    ...(truncated ? {} : toolParts(message)),
    seq,
    agent: message.agent,
    turn: message.turn ?? null,
    role: message.role ?? null,
    channel: message.channel ?? null,
    tokenCount: message.tokenCount ?? null,
    content: truncated ? cut(content, maxChars) : content,
    contentChars: content.length,
    truncated,
    tokens: tokens && attribution && tokens.length === attribution.length ? { text: tokens, attribution } : null,
  };
}

/** The structured tool calls of a `tool_call` message, or the JSON of a `tool_result` one. */
function toolParts(message: Message): Pick<MessageView, 'toolCalls' | 'toolResult'> {
  if (message.channel === 'tool_call') {
    const calls = toolCallsOf(message.content);
    return calls.length > 0 ? { toolCalls: calls } : {};
  }
  if (message.channel !== 'tool_result') return {};
  const result = toolResultOf(message.content);
  return result === undefined ? {} : { toolResult: result };
}

/** The first `max` UTF-16 units, one fewer when the last would be half a surrogate pair. */
export function cut(text: string, max: number): string {
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * The last few decoded episodes, by key (least recently used dropped first): a long episode's
 * record can be tens of MB, and a panel scrolling through it asks for many windows.
 */
export class RecentEpisodes<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly capacity = 2) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
