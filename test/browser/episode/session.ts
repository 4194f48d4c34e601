// Opening and closing the Episode webview in the harness for one test.
import assert from 'node:assert/strict';
import {
  DidChangeEpisodeNotification,
  EpisodeReadyCommand,
  GetMessagesRequest,
  maxMessageWindow,
  type EpisodeViewData,
} from '../../../src/protocol/episodePanel';
import type { IpcMessage } from '../../../src/protocol/ipc';
import type { HarnessTheme } from '../harness/server';
import type { HarnessBrowser, ScriptedHost, WebviewHarness } from '../harness/harness';

export const entry = { script: 'episode', styles: ['webview.css', 'episode.css'] } as const;

/** A page of the Episode webview plus what the tests read from it. */
export interface EpisodeSession {
  readonly h: WebviewHarness;
  /** In-page milliseconds from the DidChangeEpisode message to the first row with its text. */
  readonly openMs: number;
  /** The part of {@link openMs} spent in the webview (without the scripted host's round trip). */
  readonly webviewMs: number;
  /** Reloads the page (state survives) and waits for the next Ready. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  readonly host: ScriptedHost;
  readonly data: EpisodeViewData;
  readonly theme?: HarnessTheme;
}

/** Opens the view, waits for Ready, sends `data`, and waits for the first loaded row. */
export async function openEpisode(
  browser: HarnessBrowser,
  { host, data, theme }: OpenOptions,
): Promise<EpisodeSession> {
  const h = await browser.open({ entry, host, ...(theme ? { theme } : {}) });
  await h.waitForPosted((m) => EpisodeReadyCommand.is(m));
  await h.page.evaluate(() => {
    // Runs in the page; this file is type-checked without DOM types.
    type Observer = new (callback: () => void) => { observe(target: unknown, options: object): void };
    const page = globalThis as unknown as Record<string, unknown> & {
      addEventListener(type: string, f: (e: { data: { method?: string } }) => void): void;
      document: { querySelector(s: string): unknown };
      MutationObserver: Observer;
      __harnessPosted: (message: { method: string }) => unknown;
    };
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    page.addEventListener('message', (e) => {
      if (e.data.method === 'episode/episode/didChange') page['__episodeAt'] ??= performance.now();
      if (e.data.method === 'episode/messages/get/response') page['__messagesAnsweredAt'] ??= performance.now();
    });
    const posted = page.__harnessPosted;
    page.__harnessPosted = (message) => {
      if (message.method === 'episode/messages/get') page['__messagesAskedAt'] ??= performance.now();
      return posted(message);
    };
    new page.MutationObserver(() => {
      if (page.document.querySelector('.msg.is-loaded')) page['__firstRowAt'] ??= performance.now();
    }).observe(page.document, { subtree: true, childList: true });
  });
  await h.notify(DidChangeEpisodeNotification, data);
  await h.page.locator('.msg.is-loaded').first().waitFor();
  const [openMs, webviewMs] = await h.page.evaluate(() => {
    const at = globalThis as unknown as Record<string, number>;
    const [episode, asked, answered, row] = [
      '__episodeAt',
      '__messagesAskedAt',
      '__messagesAnsweredAt',
      '__firstRowAt',
    ].map((k) => at[k] ?? NaN) as [number, number, number, number];
    return [row - episode, asked - episode + (row - answered)];
  });
  const reload = async (): Promise<void> => {
    const from = h.posted.length;
    await h.reload();
    await waitForPostedAfter(h, from, (m) => EpisodeReadyCommand.is(m));
  };
  return { h, openMs, webviewMs, reload, close: () => h.close() };
}

/** Waits for a message posted after the first `from` ones. */
export function waitForPostedAfter(
  h: WebviewHarness,
  from: number,
  match: (m: IpcMessage) => boolean,
  timeoutMs?: number,
): Promise<IpcMessage> {
  return h.waitForPosted((m) => h.posted.indexOf(m) >= from && match(m), timeoutMs);
}

/** The `data-*` attributes and classes of row `seq`. */
export async function rowInfo(
  h: WebviewHarness,
  seq: number,
): Promise<{ credit: string; classes: string; tint: string; top: number; height: number }> {
  return h.page.locator(`.msg[data-seq="${String(seq)}"]`).evaluate((el) => {
    const row = el as unknown as {
      dataset: Record<string, string>;
      className: string;
      offsetTop: number;
      offsetHeight: number;
      style: { getPropertyValue(p: string): string };
    };
    return {
      credit: row.dataset['credit'] ?? '',
      classes: row.className,
      tint: row.style.getPropertyValue('--tint'),
      top: row.offsetTop,
      height: row.offsetHeight,
    };
  });
}

/** Sequence number of the element with keyboard focus, or null when it is not a row. */
export async function focusedSeq(h: WebviewHarness): Promise<number | null> {
  return h.page.evaluate(() => {
    const active = (
      globalThis as unknown as { document: { activeElement: { dataset?: Record<string, string> } | null } }
    ).document.activeElement;
    const seq = active?.dataset?.['seq'];
    return seq === undefined ? null : Number(seq);
  });
}

/** Chooses `method` in the method switcher with the mouse. */
export async function chooseMethod(h: WebviewHarness, method: string): Promise<void> {
  await h.page.locator('vscode-dropdown.method-switch').click();
  await h.page.locator(`vscode-option[value="${method}"]`).click();
  assert.equal(
    await h.page.locator('vscode-dropdown.method-switch').evaluate((el) => (el as unknown as { value: string }).value),
    method,
  );
}

/** The saved webview state (sessionStorage in the harness shim). */
export async function savedState(h: WebviewHarness): Promise<Record<string, unknown> | null> {
  return h.page.evaluate(() => {
    const raw = (
      globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }
    ).sessionStorage.getItem('vscode-state');
    return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
  });
}

/**
 * What keeps a long episode fast without timing it: the view asked the host for its messages, and
 * only ever for a window of them (never the whole episode).
 */
export function assertOnlyWindowsAsked(posted: readonly IpcMessage[]): void {
  const asks = posted.filter((m) => GetMessagesRequest.is(m));
  assert.ok(asks.length > 0, 'the view asked for its messages');
  for (const m of asks) {
    const { limit } = m.params as { limit: number };
    assert.ok(limit <= maxMessageWindow, `asked for ${String(limit)} messages at once`);
  }
}
