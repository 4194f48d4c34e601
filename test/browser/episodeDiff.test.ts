// The episode diff webview (webview/src/diff) in headless Chromium under the production CSP, in the
// light, dark and high-contrast themes: both sides, marked word differences, credit and its
// difference (or "no credit" with what would give it), keyboard moves between differences, a
// 1,000-message pair read by windows, markup payloads shown as text. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordDiff } from '../../src/engine/diff/wordDiff';
import {
  DidChangeDiffNotification,
  DiffReadyCommand,
  GetDiffRequest,
  GetDiffTextsRequest,
  OpenDiffSideCommand,
  type DiffRef,
  type DiffRowView,
  type DiffSideView,
  type DiffTextRow,
  type EpisodeDiffData,
} from '../../src/protocol/episodeDiffPanel';
import type { IpcMessage } from '../../src/protocol/ipc';
import type { HarnessBrowser, WebviewHarness } from './harness/harness';
import type { HarnessTheme } from './harness/server';
import { noScriptRan } from './harness/noScriptRan';
import { describeInBrowser } from './harness/suite';

const img = '<img src=x onerror=alert(1)>';
const script = '</script><script>window.__xss=1</script>';
const ref: DiffRef = { a: { folder: '/runs/demo', episodeId: 1 }, b: { folder: '/runs/demo', episodeId: 2 } };
const entry = { script: 'diff', styles: ['webview.css', 'diff.css'] } as const;
const evaluator = { configured: false, description: 'built-in final-answer', reason: 'no ground truth' };

function side(externalId: string, reward: number | null, computed: boolean): DiffSideView {
  return {
    ref: externalId.endsWith('r0') ? ref.a : ref.b,
    externalId,
    runName: `run ${script}`,
    step: 1,
    group: 's1-g0',
    sample: externalId.endsWith('r0') ? 0 : 1,
    reward,
    messageCount: 3,
    readError: null,
    credit: {
      method: 'loo',
      status: computed ? 'computed' : 'not-computed',
      reason: computed ? null : 'not computed yet under loo; recompute to compute it',
      remedy: null,
      valueStatus: computed ? 'exact' : null,
      approximate: false,
      source: computed ? 'logged' : null,
      computedAt: computed ? '2026-03-01T00:00:00.000Z' : null,
      shared: reward,
      agents: [],
      messageCreditKind: 'spread',
    },
    evaluator,
  };
}

/** Texts of A and B by row (null: the side lacks the message). */
const texts: [string | null, string | null][] = [
  [`Plan for ${img}: add the numbers.`, `Plan for ${img}: multiply the numbers.`],
  ['2 + 2 = 4 #### 4', '2 + 2 = 4 #### 4'],
  [null, `verified ${script}`],
];

function row(i: number, kind: DiffRowView['kind'], agent: string, a: number | null, b: number | null): DiffRowView {
  const [ta, tb] = texts[i] ?? [null, null];
  return {
    kind,
    agent,
    turn: 0,
    a,
    b,
    creditA: a === null ? null : 0.4,
    creditB: null,
    delta: null,
    textChanged: kind === 'paired' ? ta !== tb : null,
  };
}

const data: EpisodeDiffData = {
  ref,
  method: 'loo',
  a: side('s1-g0-r0', 1, true),
  b: side('s1-g0-r1', 0, false),
  rewardDelta: -1,
  agents: [
    { agent: img, a: 0.4, b: null, delta: null, status: null, inA: true, inB: true },
    { agent: 'solver', a: 0.4, b: null, delta: null, status: null, inA: true, inB: true },
    { agent: script, a: null, b: null, delta: null, status: null, inA: false, inB: true },
  ],
  rows: [row(0, 'paired', img, 0, 0), row(1, 'paired', 'solver', 1, 1), row(2, 'inserted', script, null, 2)],
  rowsLeftOut: 0,
  counts: { paired: 2, changed: 1, deleted: 0, inserted: 1 },
  creditDomain: { bound: 1, reward: { min: 0, max: 1 } },
  notes: [],
};

/** The row texts as the host sends them: word-diffed by the engine's own function. */
function textRows(rowTexts: readonly [string | null, string | null][], offset: number, limit: number): DiffTextRow[] {
  return rowTexts.slice(offset, offset + limit).map(([a, b], i) => {
    const diff = wordDiff(a ?? '', b ?? '');
    const of = (
      text: string | null,
      spans: DiffTextRow['a'] extends infer S ? (S extends { spans: infer T } ? T : never) : never,
    ) =>
      text === null
        ? null
        : { spans: a === null || b === null ? [{ text, changed: true }] : spans, chars: text.length, truncated: false };
    return { row: offset + i, a: of(a, diff.a), b: of(b, diff.b), capped: null };
  });
}

function host(shown: EpisodeDiffData, rowTexts: readonly [string | null, string | null][]) {
  return (message: IpcMessage): unknown => {
    if (GetDiffRequest.is(message)) return { ...shown, method: message.params.method };
    if (GetDiffTextsRequest.is(message)) {
      const { offset, limit } = message.params;
      return { offset, rows: textRows(rowTexts, offset, limit) };
    }
    return undefined;
  };
}

async function openDiff(
  browser: HarnessBrowser,
  shown: EpisodeDiffData,
  rowTexts: readonly [string | null, string | null][],
  theme?: HarnessTheme,
): Promise<WebviewHarness> {
  const h = await browser.open({ entry, host: host(shown, rowTexts), ...(theme ? { theme } : {}) });
  await h.waitForPosted((m) => DiffReadyCommand.is(m));
  await h.notify(DidChangeDiffNotification, { ref, defaultMethod: 'loo', openedMethod: null, revision: 1 });
  await h.page.locator('.diff-rows').waitFor();
  return h;
}

describeInBrowser('Episode diff webview', (browser) => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`both sides, marked word differences, honest credit cells, markup as text (${theme})`, async () => {
      const h = await openDiff(browser, data, texts, theme);
      const page = h.page;
      assert.equal(await page.locator('h1').textContent(), 'Diff: s1-g0-r0 ↔ s1-g0-r1');
      assert.deepEqual(await page.locator('.side-card h2').allTextContents(), [
        'A · Episode s1-g0-r0',
        'B · Episode s1-g0-r1',
      ]);
      assert.deepEqual(await page.locator('.reward-row td').allTextContents(), ['1.000', '0.000', '−1.000', 'logged']);
      assert.deepEqual(await page.locator('.agent-total .agent-name').allTextContents(), [img, 'solver', script]);
      assert.equal(await page.locator('.agent-total').nth(2).locator('td').first().textContent(), 'not in roster');
      assert.equal(
        await page.locator('.counts').textContent(),
        '2 paired (1 with changed text) · 0 only in A · 1 only in B',
      );
      // B has no stored credit: its notice and every B message say so, in the Episode view's words.
      assert.match(
        (await page.locator('.side-b [data-notice="not-computed"]').textContent()) ?? '',
        /^Not computed yet/,
      );
      const rows = page.locator('.diff-row');
      assert.equal(await rows.count(), 3);
      await rows.first().locator('.side-a .text:not(.is-loading)').waitFor();
      const noCredit = rows.first().locator('.side-b .credit-chip');
      assert.equal(await noCredit.textContent(), 'no credit');
      assert.equal(
        await noCredit.getAttribute('title'),
        'No credit for this message under Leave-one-out. Not computed yet: No Leave-one-out credit is stored for this episode. Recompute runs the credit engine on it.',
      );
      assert.equal(await rows.first().locator('.side-a .credit-chip').textContent(), '+0.400');
      assert.equal(await rows.first().locator('.delta-chip').textContent(), '—');
      assert.equal(
        await rows.first().locator('.delta-chip').getAttribute('title'),
        'No difference: B has no credit for this message',
      );
      // The one changed word on each side is marked; the unchanged row has no mark; the B-only message is all marked.
      assert.deepEqual(await rows.first().locator('.side-a mark.changed').allTextContents(), ['add ']);
      assert.deepEqual(await rows.first().locator('.side-b mark.changed').allTextContents(), ['multiply ']);
      assert.equal(await rows.first().locator('.side-a .text').textContent(), `Plan for ${img}: add the numbers.`);
      assert.equal(await rows.nth(1).locator('mark').count(), 0);
      assert.equal(await rows.nth(2).locator('.side-a').textContent(), 'not in A');
      assert.deepEqual(await rows.nth(2).locator('.side-b mark.changed').allTextContents(), [`verified ${script}`]);
      assert.match((await rows.nth(2).locator('.kind-mark').textContent()) ?? '', /only in B/);
      // The marks are drawn (a fill that is not the background) and never colour alone (struck / underlined).
      const style = await rows
        .first()
        .locator('.side-b mark.changed')
        .evaluate((el) => {
          const s = (
            globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }
          ).getComputedStyle(el);
          return { fill: s['backgroundColor'], line: s['textDecorationLine'] };
        });
      assert.notEqual(style.fill, 'rgba(0, 0, 0, 0)');
      assert.equal(style.line, 'underline');
      await noScriptRan(h);
      await h.screenshot(`diff-${theme}`);
      await h.close();
    });
  }

  test('keyboard: n / p and Alt+F5 move between differences, said in the status line; the place survives a reload', async () => {
    const h = await openDiff(browser, data, texts);
    const page = h.page;
    await page.locator('.diff-header h1').click();
    await page.keyboard.press('n');
    const current = page.locator('.diff-row.is-current');
    assert.equal(await current.getAttribute('data-row'), '0');
    assert.match((await page.locator('.diff-status').textContent()) ?? '', /^Difference 1 of 2: .*text changed/);
    await page.keyboard.press('n');
    assert.equal(await current.getAttribute('data-row'), '2', 'the unchanged row is skipped');
    assert.match((await page.locator('.diff-status').textContent()) ?? '', /^Difference 2 of 2: .*only in B/);
    await page.keyboard.press('Alt+F5');
    assert.equal(await current.getAttribute('data-row'), '0', 'wraps around');
    await page.keyboard.press('p');
    assert.equal(await current.getAttribute('data-row'), '2');
    const focused = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { activeElement: { dataset: Record<string, string> } } }).document
          .activeElement.dataset['row'],
    );
    assert.equal(focused, '2');
    await h.reload();
    await h.waitForPosted((m) => DiffReadyCommand.is(m) && (m.params as { ref: unknown }).ref !== null);
    await h.notify(DidChangeDiffNotification, { ref, defaultMethod: 'shared', openedMethod: null, revision: 2 });
    await page.locator('.diff-row.is-current').waitFor();
    assert.equal(await page.locator('.diff-row.is-current').getAttribute('data-row'), '2');
    await page.locator('.side-a .open-side button').click();
    const opened = await h.waitForPosted((m) => OpenDiffSideCommand.is(m));
    assert.deepEqual(opened.params, { ref, side: 'a', method: 'loo' });
    await h.close();
  });

  test('a 1,000-message pair renders at once and reads texts only for the windows in view', async () => {
    const many: [string, string][] = Array.from({ length: 1000 }, (_, i) => [
      `message ${String(i)} of A`,
      i % 10 === 0 ? `message ${String(i)} of B` : `message ${String(i)} of A`,
    ]);
    const big: EpisodeDiffData = {
      ...data,
      rows: many.map(([a, b], i) => ({
        kind: 'paired',
        agent: 'solver',
        turn: i,
        a: i,
        b: i,
        creditA: 0.001 * i,
        creditB: 0.001 * i,
        delta: 0,
        textChanged: a !== b,
      })),
      counts: { paired: 1000, changed: 100, deleted: 0, inserted: 0 },
    };
    const started = Date.now();
    const h = await openDiff(browser, big, many);
    await h.page.locator('.diff-row').first().locator('.side-a .text:not(.is-loading)').waitFor();
    const ms = Date.now() - started;
    assert.equal(await h.page.locator('.diff-row').count(), 1000);
    const asked = (): number[] =>
      h.posted.filter((m) => GetDiffTextsRequest.is(m)).map((m) => (m.params as { offset: number }).offset);
    assert.ok(asked().length <= 3, `windows asked at the top: ${asked().join(', ')}`);
    assert.ok(ms < 5000, `${String(ms)} ms to the first texts`);
    await h.page.locator('.diff-row').last().scrollIntoViewIfNeeded();
    await h.page.locator('.diff-row').last().locator('.side-b .text:not(.is-loading)').waitFor();
    assert.ok(asked().includes(950), 'the last window is read when it comes into view');
    assert.ok(asked().length < 20, `not every window: ${String(asked().length)}`);
    // Only every tenth row differs: 100 differences, the 2nd one is row 10.
    await h.page.locator('.diff-header h1').click();
    await h.page.keyboard.press('n');
    await h.page.keyboard.press('n');
    assert.equal(await h.page.locator('.diff-row.is-current').getAttribute('data-row'), '10');
    assert.match((await h.page.locator('.diff-status').textContent()) ?? '', /^Difference 2 of 100/);
    await h.close();
  });
});
