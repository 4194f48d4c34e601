import type { Message } from '../core/episode';

/**
 * An assistant message with a token count estimated as words × 1.3 (the usual ratio for English
 * text under BPE tokenisers), so the demo has realistic token statistics without a tokeniser.
 */
export function assistantMessage(agent: string, turn: number, content: string): Message {
  return { agent, turn, role: 'assistant', content, tokenCount: estimateTokens(content) };
}

/** Estimated tokens of `text`: words (runs of characters above U+0020) × 1.3, rounded; 0 for empty text. */
export function estimateTokens(text: string): number {
  let words = 0;
  let afterSpace = true;
  // A hand-rolled scan: split(/\s+/) allocates an array per message and is ~5× slower in 1 GB runs.
  for (let i = 0; i < text.length; i++) {
    const isSpace = text.charCodeAt(i) <= 32;
    if (afterSpace && !isSpace) words++;
    afterSpace = isSpace;
  }
  return Math.round(words * 1.3);
}
