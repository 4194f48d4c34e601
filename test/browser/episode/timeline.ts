// The swimlanes' scripted host (the episode fixture plus the timeline reply) and the in-page timing of
// their first blocks, shared by the swimlanes suite and the webview benchmark (bench/webviewOpen.ts).
import {
  DidChangeEpisodeNotification,
  EpisodeReadyCommand,
  GetTimelineRequest,
  type TimelineView,
} from '../../../src/protocol/episodePanel';
import type { IpcMessage } from '../../../src/protocol/ipc';
import type { HarnessBrowser, ScriptedHost, WebviewHarness } from '../harness/harness';
import { agents, episodeData, scriptedHost } from './fixture';
import { entry } from './session';

/** The fixture's authors (seq mod 3) and tokens (20 + seq mod 30), every 11th message without a count. */
export function timelineOf(count: number): TimelineView {
  return {
    authors: Array.from({ length: count }, (_, seq) => seq % agents.length),
    tokens: Array.from({ length: count }, (_, seq) => (seq % 11 === 5 ? null : 20 + (seq % 30))),
    flags: Array.from({ length: count }, () => 0),
  };
}

/** The fixture's scripted host for `count` messages, answering the timeline request too. */
export function swimlaneHost(count: number): ScriptedHost {
  const base = scriptedHost({ count });
  const timeline = timelineOf(count);
  return (message: IpcMessage, harness: WebviewHarness): unknown =>
    GetTimelineRequest.is(message) ? timeline : base(message, harness);
}

/**
 * In-page milliseconds from the timeline reply's arrival to its blocks in the DOM, and from the
 * episode's arrival to them (the scripted host answers at once).
 */
export async function timedSwimlanes(
  browser: HarnessBrowser,
  count: number,
): Promise<{ h: WebviewHarness; replyMs: number; openMs: number }> {
  const h = await browser.open({ entry, host: swimlaneHost(count) });
  await h.waitForPosted((m) => EpisodeReadyCommand.is(m));
  await h.page.evaluate(() => {
    type Observer = new (callback: () => void) => { observe(target: unknown, options: object): void };
    const page = globalThis as unknown as Record<string, unknown> & {
      addEventListener(type: string, f: (e: { data: { method?: string } }) => void, capture: boolean): void;
      document: { querySelector(s: string): unknown };
      MutationObserver: Observer;
    };
    // Capture: at the window, before the view's own listener handles the reply.
    page.addEventListener(
      'message',
      (e) => {
        if (e.data.method === 'episode/episode/didChange') page['__episodeAt'] ??= performance.now();
        if (e.data.method === 'episode/timeline/get/response') page['__timelineAt'] ??= performance.now();
      },
      true,
    );
    new page.MutationObserver(() => {
      if (page.document.querySelector('.lane-block')) page['__blocksAt'] ??= performance.now();
    }).observe(page.document, { subtree: true, childList: true });
  });
  await h.notify(DidChangeEpisodeNotification, episodeData(count));
  await h.page.locator('.lane-block').first().waitFor();
  const [replyMs, openMs] = await h.page.evaluate(() => {
    const at = globalThis as unknown as Record<string, number>;
    const blocks = at['__blocksAt'] ?? NaN;
    return [blocks - (at['__timelineAt'] ?? NaN), blocks - (at['__episodeAt'] ?? NaN)];
  });
  return { h, replyMs, openMs };
}
