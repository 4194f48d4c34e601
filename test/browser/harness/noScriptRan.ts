// The XSS check of every browser suite that renders trace text.
import assert from 'node:assert/strict';
import type { WebviewHarness } from './harness';

/** Asserts that no markup payload ran (`window.__xss` unset) or became an element inside the app. */
export async function noScriptRan(h: WebviewHarness): Promise<void> {
  const result = await h.page.evaluate(() => {
    const page = globalThis as unknown as {
      __xss?: unknown;
      document: { querySelectorAll(s: string): { length: number } };
    };
    return { xss: page.__xss, injected: page.document.querySelectorAll('#app img, #app script, [onerror]').length };
  });
  assert.deepEqual(result, { xss: undefined, injected: 0 });
}
