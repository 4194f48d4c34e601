// The Compare webview (webview/src/compare) in headless Chromium under the production CSP, in the
// light, dark and high-contrast themes: the form, the interval chart and its table, the pairing,
// flags and example pairs, with markup payloads in agent and run names. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CompareRunChoice, ComparisonRequest } from '../../src/core/runComparison';
import {
  CompareReadyCommand,
  CompareRunsRequest,
  DidChangeCompareNotification,
  GetCompareChoicesRequest,
  OpenCompareEpisodeCommand,
  type ComparisonView,
} from '../../src/protocol/comparePanel';
import type { IpcMessage } from '../../src/protocol/ipc';
import type { HarnessBrowser, WebviewHarness } from './harness/harness';
import type { HarnessTheme } from './harness/server';
import { noScriptRan } from './harness/noScriptRan';
import { describeInBrowser } from './harness/suite';

const img = '<img src=x onerror=alert(1)>';
const script = '</script><script>window.__xss=1</script>';
const folder = '/runs/demo';
const entry = { script: 'compare', styles: ['webview.css', 'compare.css'] } as const;

const runs: CompareRunChoice[] = [
  { run: 'planner-solver-verifier', episodes: 1920, steps: { from: 1, to: 60 }, methods: ['shared', 'loo'] },
  { run: 'planner-solver-verifier-credit', episodes: 1920, steps: { from: 1, to: 60 }, methods: ['loo', 'shapley'] },
  { run: `run ${script}`, episodes: 3, methods: [] },
];

const t24 = { n: 24, test: 't' } as const;

/** The verifier keeps contributing in B: +0.18 [0.09, 0.27]; the solver's change crosses zero; one agent has no credit in A. */
function comparison(request: ComparisonRequest): ComparisonView {
  return {
    a: { ...request.a, label: 'planner-solver-verifier' },
    b: { ...request.b, label: 'planner-solver-verifier-credit' },
    method: request.method,
    pairing: { key: 'task', pairs: 24, episodesA: 26, episodesB: 25, unpairedA: 2, unpairedB: 1, ambiguousKeys: 0 },
    reward: { ...t24, meanA: 0.5, meanB: 0.625, difference: 0.125, interval: [0.02, 0.23], p: 0.021 },
    agents: [
      {
        agent: 'verifier',
        credit: { ...t24, meanA: 0.02, meanB: 0.2, difference: 0.18, interval: [0.09, 0.27], p: 0.0004 },
        shareA: 0.05,
        shareB: 0.31,
        statusA: 'exact',
        statusB: 'estimated',
      },
      {
        agent: 'solver',
        credit: { ...t24, meanA: 0.3, meanB: 0.28, difference: -0.02, interval: [-0.08, 0.04], p: 0.49 },
        shareA: 0.75,
        shareB: 0.5,
        statusA: 'exact',
        statusB: 'exact',
      },
      {
        agent: img,
        credit: { n: 0, meanA: null, meanB: 0.1, difference: null, interval: [null, null], p: null, test: 't' },
        shareA: null,
        shareB: 0.19,
        statusA: 'not-identifiable',
        statusB: 'exact',
        missing: `side A has no loo credit for ${img}: log its counterfactuals`,
      },
    ],
    flags: [
      { agent: 'verifier', kind: 'free-rider', change: 'disappeared', stepsA: [25, 40] },
      { agent: img, kind: 'idle', change: 'appeared', stepsB: [3, 9] },
    ],
    examples: [
      {
        key: 'task-7',
        episodeA: 's30-g1-r0',
        episodeB: 'credit-s30-g1-r0',
        agent: 'verifier',
        creditA: 0,
        creditB: 0.5,
      },
      {
        key: `task-${script}`,
        episodeA: 's31-g0-r1',
        episodeB: 'credit-s31-g0-r1',
        agent: 'solver',
        creditA: 0.4,
        creditB: 0.2,
      },
    ],
    notes: ['2 episodes of A and 1 of B had no partner on the other side: counted and excluded.'],
  };
}

interface Host {
  fail?: string;
}

function scripted(state: Host) {
  return (message: IpcMessage): unknown => {
    if (GetCompareChoicesRequest.is(message)) return { folder, runs };
    if (CompareRunsRequest.is(message)) {
      if (state.fail) throw new Error(state.fail);
      return comparison(message.params.request);
    }
    return undefined;
  };
}

async function openCompare(browser: HarnessBrowser, theme?: HarnessTheme, state: Host = {}): Promise<WebviewHarness> {
  const h = await browser.open({ entry, host: scripted(state), ...(theme ? { theme } : {}) });
  await h.waitForPosted((m) => CompareReadyCommand.is(m));
  await h.notify(DidChangeCompareNotification, { folder, defaultMethod: 'loo', revision: 1 });
  await h.page.locator('.compare-picker').waitFor();
  return h;
}

/** Picks option `index` of the run dropdown of side `side`. */
async function chooseRun(h: WebviewHarness, side: 'a' | 'b', index: number): Promise<void> {
  await h.page.locator(`.side-${side} .run-choice`).click();
  await h.page.locator(`.side-${side} .run-choice vscode-option[value="${String(index)}"]`).click();
}

function cells(h: WebviewHarness, agent: string): Promise<string[]> {
  return h.page
    .locator('table.compare-agents tbody tr', { has: h.page.locator('th', { hasText: agent }) })
    .first()
    .locator('th, td')
    .allTextContents();
}

describeInBrowser('Compare webview', (browser) => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`compares A and B: the verifier's interval and share change, flags, pairing, statuses (${theme})`, async () => {
      const h = await openCompare(browser, theme);
      const page = h.page;
      // Defaults: the first run as A, the second as B, the default method (both runs store loo).
      assert.equal(await page.locator('.method-choice').evaluate((e) => (e as HTMLInputElement).value), 'loo');
      await page.locator('.compare-button').click();
      const asked = await h.waitForPosted((m) => CompareRunsRequest.is(m));
      assert.deepEqual((asked.params as { request: unknown }).request, {
        a: { run: 'planner-solver-verifier' },
        b: { run: 'planner-solver-verifier-credit' },
        method: 'loo',
      });
      await page.locator('table.compare-agents').waitFor();
      assert.equal(
        await page.locator('.result-title').textContent(),
        'planner-solver-verifier-credit vs planner-solver-verifier',
      );
      assert.deepEqual(await cells(h, 'verifier'), [
        'verifier',
        '0.020',
        '0.200',
        '+0.180',
        '[+0.090, +0.270]',
        'p < 0.001',
        'paired t',
        '24',
        '5.0% → 31.0%',
        '+26.0 pp',
        'exact',
        'estimated',
        'free-rider disappeared (steps 25–40)',
      ]);
      assert.deepEqual(await cells(h, 'Team reward'), [
        'Team reward',
        '0.500',
        '0.625',
        '+0.125',
        '[+0.020, +0.230]',
        'p = 0.021',
        'paired t',
        '24',
        '—',
        '—',
        '—',
        '—',
        '—',
      ]);
      // Not identifiable: the reason and what would answer it, never a number; the name stays text.
      const unknown = await cells(h, img);
      assert.equal(unknown[0], img);
      assert.equal(unknown[3], `not identifiable: side A has no loo credit for ${img}: log its counterfactuals`);
      assert.equal(unknown[4], '— → 19.0%');
      assert.equal(unknown[6], 'not identifiable');
      // The chart: a row per agent, the verifier's bar right of the dashed zero line, p and test in its label.
      const labels = await page.locator('svg.compare-intervals .interval-label').allTextContents();
      assert.deepEqual(labels, [
        'verifier  +0.180 [+0.090, +0.270], p < 0.001 (paired t, 24 pairs)',
        'solver  −0.020 [−0.080, +0.040], p = 0.49 (paired t, 24 pairs)',
        `${img}  not identifiable: side A has no loo credit for ${img}: log its counterfactuals`,
      ]);
      const verifier = page.locator('.interval-row').nth(0);
      assert.match((await verifier.getAttribute('class')) ?? '', /verdict-up/);
      assert.match((await page.locator('.interval-row').nth(1).getAttribute('class')) ?? '', /verdict-unclear/);
      const zero = Number(await verifier.locator('.zero-line').getAttribute('x1'));
      assert.ok(
        Number(await verifier.locator('.interval-bar').getAttribute('x1')) > zero,
        'the whole interval is above 0',
      );
      assert.equal(
        await page.locator('.interval-row').nth(2).locator('circle, .interval-bar').count(),
        0,
        'no mark without a number',
      );
      assert.match(
        (await page.locator('svg.compare-intervals').getAttribute('aria-label')) ?? '',
        /the table lists the same numbers/,
      );
      // Pairing: pairs, the unpaired counted and excluded; the engine's notes; flags that changed.
      assert.deepEqual(await page.locator('.pairing p').allTextContents(), [
        '24 pairs by task, of 26 episodes in A and 25 episodes in B.',
        'Unpaired, counted and excluded: 2 episodes of A and 1 episode of B had no partner on the other side.',
        'Team reward, B − A: +0.125 [+0.020, +0.230], p = 0.021 (paired t, 24 pairs).',
      ]);
      assert.equal(await page.locator('.notice').first().textContent(), comparison(asked.params as never).notes[0]);
      assert.deepEqual(await page.locator('tr.flag-change').first().locator('td').allTextContents(), [
        'verifier',
        'free-rider',
        'disappeared',
        'steps 25–40',
        '—',
      ]);
      assert.deepEqual(await page.locator('.example-key').allTextContents(), ['task-7', `task-${script}`]);
      // The run without credit is offered, as text.
      assert.equal(
        await page.locator('.side-a vscode-option[value="2"]').textContent(),
        `run ${script} (3 episodes, no steps)`,
      );
      await noScriptRan(h);
      await h.screenshot(`compare-${theme}`);
      await h.close();
    });
  }

  test('keyboard: Tab reaches the form and Compare; Enter compares; Open B opens that episode; a reload compares again', async () => {
    const h = await openCompare(browser);
    const page = h.page;
    const focusedClass = (): Promise<string> =>
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { className: string } } }).document.activeElement
            .className,
      );
    await page.keyboard.press('Tab');
    assert.match(await focusedClass(), /run-choice/, 'side A’s run first');
    for (let i = 0; i < 20 && !/compare-button/.test(await focusedClass()); i++) await page.keyboard.press('Tab');
    assert.match(await focusedClass(), /compare-button/);
    await page.keyboard.press('Enter');
    await page.locator('.example-button').first().waitFor();
    for (let i = 0; i < 40 && !/example-button/.test(await focusedClass()); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement
            .textContent,
      ),
      'Open B',
    );
    await page.keyboard.press('Enter');
    const opened = await h.waitForPosted((m) => OpenCompareEpisodeCommand.is(m));
    assert.deepEqual(opened.params, {
      folder,
      side: 'b',
      run: 'planner-solver-verifier-credit',
      episode: 'credit-s30-g1-r0',
    });
    await h.reload();
    await h.waitForPosted((m) => CompareReadyCommand.is(m) && (m.params as { folder: unknown }).folder === folder);
    const before = h.posted.filter((m) => CompareRunsRequest.is(m)).length;
    await h.notify(DidChangeCompareNotification, { folder, defaultMethod: 'shared', revision: 2 });
    await page.locator('table.compare-agents').waitFor();
    assert.ok(h.posted.filter((m) => CompareRunsRequest.is(m)).length > before, 'the saved request is compared again');
    await h.close();
  });

  test('the form: another run and steps go into the request; bad steps and runs without a common method say why', async () => {
    const state: Host = {};
    const h = await openCompare(browser, undefined, state);
    const page = h.page;
    await chooseRun(h, 'b', 0);
    await page.locator('.side-a .step-from').locator('input').fill('1');
    await page.locator('.side-a .step-to').locator('input').fill('100');
    await page.locator('.side-b .step-from').locator('input').fill('40');
    await page.locator('.compare-button').click();
    const asked = await h.waitForPosted((m) => CompareRunsRequest.is(m));
    assert.deepEqual((asked.params as { request: unknown }).request, {
      a: { run: 'planner-solver-verifier', steps: { from: 1, to: 100 } },
      b: { run: 'planner-solver-verifier', steps: { from: 40, to: 60 } },
      method: 'loo',
    });
    await page.locator('.side-b .step-to').locator('input').fill('x');
    await page.locator('.picker-error', { hasText: 'Side B: steps must be whole numbers.' }).waitFor();
    assert.equal(await page.locator('.compare-button').getAttribute('disabled'), '');
    await page.locator('.side-b .step-to').locator('input').fill('');
    await chooseRun(h, 'b', 2);
    await page.locator('.picker-error', { hasText: `Side B: run run ${script} logs no steps` }).waitFor();
    await page.locator('.side-b .step-from').locator('input').fill('');
    await page.locator('.picker-error', { hasText: 'no credit method stored on both' }).waitFor();
    await chooseRun(h, 'b', 1);
    state.fail = 'run `credit-lens credit <dir> --method loo` first';
    await page.locator('.compare-button').click();
    await page
      .locator('.compare-result .error', { hasText: 'The runs could not be compared: run `credit-lens credit' })
      .waitFor();
    await h.close();
  });
});
