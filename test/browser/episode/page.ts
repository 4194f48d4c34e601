// Page helpers of the Episode webview's browser tests: scrolling, frame times, saved state.
import type { Page } from 'playwright-core';
import type { WebviewHarness } from '../harness/harness';
import { savedState } from './session';

/** The page's getComputedStyle (this file is type-checked without DOM types). */
export interface ComputedStyleHost {
  getComputedStyle(element: unknown): { outlineStyle: string; display: string };
}

/**
 * Scrolls the timeline by `step` px on each of `count` animation frames and reports the frame
 * times (a string script: tsx would wrap named functions in a helper the page lacks).
 */
export async function scrollFrames(
  page: Page,
  count: number,
  step: number,
): Promise<{ p50: number; max: number; rows: number }> {
  return page.evaluate(`new Promise((resolve) => {
    const viewport = document.querySelector('.timeline-viewport');
    const times = [];
    let last = performance.now();
    function frame(now) {
      times.push(now - last);
      last = now;
      viewport.scrollTop += ${String(step)};
      if (times.length < ${String(count)}) requestAnimationFrame(frame);
      else {
        times.sort((a, b) => a - b);
        resolve({ p50: times[Math.floor(times.length / 2)], max: times[times.length - 1], rows: document.querySelectorAll('.msg').length });
      }
    }
    requestAnimationFrame(frame);
  })`);
}

/** Scrolls the timeline so that row `seq` is at the top (all rows above are collapsed). */
export async function scrollToRow(h: { page: Page }, seq: number): Promise<void> {
  const rowHeight = await h.page
    .locator('.msg[data-seq="0"]')
    .evaluate((el) => (el as unknown as { offsetHeight: number }).offsetHeight);
  await h.page.locator('.timeline-viewport').evaluate((el, top) => {
    (el as unknown as { scrollTop: number }).scrollTop = top;
  }, seq * rowHeight);
}

export async function scrollTop(h: { page: Page }): Promise<number> {
  return h.page.locator('.timeline-viewport').evaluate((el) => (el as unknown as { scrollTop: number }).scrollTop);
}

/** Waits until the saved state's `key` passes `min` (a number) or includes `min` (an array). */
export async function waitForSaved(h: WebviewHarness, key: string, min: number): Promise<Record<string, unknown>> {
  await h.page.waitForFunction(
    ([k, m]) => {
      const raw = (
        globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }
      ).sessionStorage.getItem('vscode-state');
      const value = raw === null ? undefined : (JSON.parse(raw) as Record<string, unknown>)[k];
      return Array.isArray(value) ? value.includes(m) : typeof value === 'number' && value > m;
    },
    [key, min] as const,
  );
  return (await savedState(h))!;
}
