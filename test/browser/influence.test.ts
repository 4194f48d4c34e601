// The influence graph of the Episode view (webview/src/influence) in headless Chromium under the
// production CSP, in the light, dark and high-contrast themes: the arcs and the table with the same
// numbers, the agent with no influence marked, the keyboard path (nodes focusable, their rows
// marked), and markup payloads in agent names kept as text. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IpcMessage } from '../../src/protocol/ipc';
import { GetEpisodeInfluenceRequest, type InfluenceGraphView } from '../../src/protocol/influence';
import { episodeData, scriptedHost } from './episode/fixture';
import { openEpisode } from './episode/session';
import type { WebviewHarness } from './harness/harness';
import { noScriptRan } from './harness/noScriptRan';
import { describeInBrowser } from './harness/suite';
import { brushColumns } from './dashboard/dashboardHost';
import { closeDashboard, openDashboard } from './dashboard/openDashboard';

const img = '<img src=x onerror="window.__xss=1">';
const script = '</script><script>window.__xss=1</script>';
const planner = `planner ${img}`;
const verifier = `verifier ${script}`;

const graph: InfluenceGraphView = {
  agents: [
    { name: planner, noInfluence: false },
    { name: 'solver', noInfluence: false },
    { name: verifier, noInfluence: true },
  ],
  edges: [
    {
      from: planner,
      to: 'solver',
      kind: 'logged',
      value: 0.8,
      exact: true,
      provenance: 'logged weights of messages #1→#2',
      connections: 1,
      episodes: 1,
    },
    {
      from: 'solver',
      to: verifier,
      kind: 'logged',
      value: 0.2,
      exact: true,
      provenance: 'logged weights of messages #2→#3',
      connections: 1,
      episodes: 1,
    },
    {
      from: planner,
      to: null,
      kind: 'counterfactual',
      value: -0.25,
      exact: false,
      provenance: `v(N) − v(N∖{${planner}}), logged`,
      connections: 0,
      episodes: 1,
    },
    {
      from: 'solver',
      to: null,
      kind: 'counterfactual',
      value: 1,
      exact: true,
      provenance: 'v(N) − v(N∖{solver}), logged',
      connections: 0,
      episodes: 1,
    },
    {
      from: verifier,
      to: null,
      kind: 'counterfactual',
      value: 0,
      exact: true,
      provenance: `v(N) − v(N∖{${verifier}}), logged`,
      connections: 0,
      episodes: 1,
    },
  ],
  episodes: 1,
  skipped: 0,
  missing: null,
};

const data = episodeData(12);

// A replay's edges (credit-methods.md §3.17): the planner's message #1 → outcome, and output distances.
const replayedGraph: InfluenceGraphView = {
  ...graph,
  edges: [
    ...graph.edges,
    {
      from: planner,
      to: null,
      kind: 'counterfactual',
      value: 1,
      exact: true,
      provenance: 'v(M) − v(M∖{#1}), replayed (cached in the index)',
      connections: 0,
      episodes: 1,
      message: 0,
    },
    {
      from: planner,
      to: 'solver',
      kind: 'replayed-output',
      value: 0.375,
      exact: true,
      provenance: `1 − Jaccard(words of solver's output without ${planner}, with ${planner}), replayed (cached in the index); final answer changed in 100% of the replays`,
      connections: 0,
      episodes: 1,
      answerChanged: 1,
    },
    {
      from: verifier,
      to: 'solver',
      kind: 'replayed-output',
      value: 0,
      exact: true,
      provenance: 'replayed (cached in the index)',
      connections: 0,
      episodes: 1,
      answerChanged: 0,
    },
  ],
};

function host(answer: () => unknown) {
  const base = scriptedHost({ count: 12 });
  return (message: IpcMessage, harness: WebviewHarness): unknown =>
    GetEpisodeInfluenceRequest.is(message) ? answer() : base(message, harness);
}

describeInBrowser('Episode webview: the influence graph', (browser) => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`arcs, the table with the same numbers and the agent with no influence (${theme})`, async () => {
      const s = await openEpisode(browser, { host: host(() => graph), data, theme });
      const page = s.h.page;
      const section = page.locator('section.influence');
      await section.locator('.influence-table tbody tr').first().waitFor();
      assert.equal(await section.locator('h2').textContent(), 'Influence (not credit)');
      // The table: one row per edge, agent names as text, signed numbers, exactness in words.
      const rows = section.locator('.influence-table tbody tr');
      assert.equal(await rows.count(), 5);
      assert.deepEqual(await rows.locator('td:nth-child(1)').allTextContents(), [
        planner,
        'solver',
        planner,
        'solver',
        verifier,
      ]);
      assert.deepEqual(await rows.locator('td:nth-child(2)').allTextContents(), [
        'solver',
        verifier,
        'outcome',
        'outcome',
        'outcome',
      ]);
      assert.deepEqual(await rows.locator('td:nth-child(4)').allTextContents(), [
        '+0.800',
        '+0.200',
        '−0.250',
        '+1.000',
        '0',
      ]);
      assert.deepEqual(await rows.locator('td:nth-child(5)').allTextContents(), [
        'exact',
        'exact',
        'approximate',
        'exact',
        'exact',
      ]);
      // The graph: 4 nodes (3 agents and the outcome), one arc per edge, signs and approximation as classes.
      assert.equal(await section.locator('.influence-node').count(), 4);
      assert.equal(await section.locator('.influence-arc').count(), 5);
      assert.equal(await section.locator('.influence-arc.influence-negative.influence-approx').count(), 1);
      assert.equal(await section.locator('.influence-arc.influence-zero').count(), 1);
      // Widths follow |influence| within a kind: the solver's effect is the widest counterfactual arc.
      const widths = await section
        .locator('.influence-arc.influence-counterfactual')
        .evaluateAll((arcs) =>
          arcs.map((a) => Number((a as unknown as { getAttribute(n: string): string }).getAttribute('stroke-width'))),
        );
      assert.ok((widths[1] ?? 0) > (widths[0] ?? 0) && (widths[0] ?? 0) > (widths[2] ?? 0), JSON.stringify(widths));
      // The agent with no influence is visible at a glance: marked node, label, and the line above the graph.
      const quiet = section.locator('.influence-node.influence-none');
      assert.equal(await quiet.count(), 1);
      assert.equal(await quiet.getAttribute('aria-label'), `${verifier}: no influence`);
      assert.equal(await quiet.locator('.influence-none-label').textContent(), 'no influence');
      assert.equal(await section.locator('.influence-quiet').textContent(), `No influence: ${verifier}.`);
      const stroke = await quiet.locator('circle').evaluate((c) => getComputedStyle(c as Element).strokeDasharray);
      assert.notEqual(stroke, 'none');
      await noScriptRan(s.h);
      await section.scrollIntoViewIfNeeded();
      await s.h.screenshot(`episode-influence-${theme}`);
      await s.close();
    });
  }

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`replayed edges: output distances arc above in their own colour, message edges in the table with their message and source (${theme})`, async () => {
      const s = await openEpisode(browser, { host: host(() => replayedGraph), data, theme });
      const section = s.h.page.locator('section.influence');
      await section.locator('.influence-table tbody tr').first().waitFor();
      const rows = section.locator('.influence-table tbody tr');
      assert.equal(await rows.count(), 8);
      const cells = async (n: number) => (await rows.locator(`td:nth-child(${String(n)})`).allTextContents()).slice(5);
      assert.deepEqual(await cells(1), [`${planner}, message #1`, planner, verifier]);
      assert.deepEqual(await cells(3), ['counterfactual', 'replayed-output', 'replayed-output']);
      assert.deepEqual(await cells(4), ['+1.000', '+0.375', '0']);
      const sources = await cells(7);
      assert.equal(sources[0], 'v(M) − v(M∖{#1}), replayed (cached in the index)');
      assert.match(sources[1] ?? '', /final answer changed in 100% of the replays$/);
      // Two output arcs (the message edge is in the table only), above the line, not in the sign colours.
      const arcs = section.locator('.influence-arc.influence-replayed-output');
      assert.equal(await arcs.count(), 2);
      assert.equal(await section.locator('.influence-arc').count(), 7);
      const paths = await arcs.evaluateAll((list) =>
        list.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('d')),
      );
      for (const d of paths) {
        const controlY = Number(/Q[\d.]+,(-?[\d.]+)/.exec(d)?.[1]);
        assert.ok(controlY < 92, d);
      }
      const colours = await arcs.evaluateAll((list) => list.map((a) => getComputedStyle(a as Element).stroke));
      const logged = await section
        .locator('.influence-arc.influence-logged')
        .first()
        .evaluate((a) => getComputedStyle(a as Element).stroke);
      assert.ok(
        colours.every((c) => c !== logged && c !== ''),
        `${colours.join(', ')} vs ${logged}`,
      );
      assert.match(
        (await section.locator('.influence-key').textContent()) ?? '',
        /replayed output .*1 − token-set Jaccard, 0 to 1/,
      );
      await noScriptRan(s.h);
      await section.scrollIntoViewIfNeeded();
      await s.h.screenshot(`episode-influence-replayed-${theme}`);
      await s.close();
    });
  }

  test('keyboard: Tab reaches every node, a focused node marks its rows, the table region is focusable', async () => {
    const s = await openEpisode(browser, { host: host(() => graph), data });
    const page = s.h.page;
    const nodes = page.locator('.influence-node');
    await nodes.first().waitFor();
    await nodes.first().focus();
    const labels: string[] = [];
    for (let i = 0; i < 4; i++) {
      labels.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''));
      if (i === 0) {
        const marked = await page.locator('.influence-table tr.influence-marked td:nth-child(1)').allTextContents();
        assert.deepEqual(marked, [planner, planner]);
      }
      await page.keyboard.press('Tab');
    }
    assert.deepEqual(labels, [
      `${planner}: influences others or the outcome`,
      'solver: influences others or the outcome',
      `${verifier}: no influence`,
      'the outcome (reward)',
    ]);
    // The next stop is the table, a focusable region; leaving the nodes clears the marks.
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Influence edges table',
    );
    assert.equal(await page.locator('.influence-table tr.influence-marked').count(), 0);
    await s.close();
  });

  test('says what is missing, and why the graph could not be read, as text', async () => {
    const none: InfluenceGraphView = {
      agents: graph.agents,
      edges: [],
      episodes: 1,
      skipped: 0,
      missing: `This data has nothing ${img}.`,
    };
    const empty = await openEpisode(browser, { host: host(() => none), data });
    await empty.h.page.locator('section.influence .placeholder', { hasText: 'This data has nothing' }).waitFor();
    assert.equal(
      await empty.h.page.locator('section.influence .placeholder').textContent(),
      `This data has nothing ${img}.`,
    );
    await noScriptRan(empty.h);
    await empty.close();
    const failed = await openEpisode(browser, {
      host: host(() => {
        throw new Error(`the episode is no longer in the index ${script}`);
      }),
      data,
    });
    await failed.h.page.locator('.influence-slot .error').waitFor();
    assert.equal(
      await failed.h.page.locator('.influence-slot .error').textContent(),
      `The influence graph could not be read: the episode is no longer in the index ${script}`,
    );
    await noScriptRan(failed.h);
    await failed.close();
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`the dashboard shows the mean graph over the brushed steps, with the episodes behind each edge (${theme})`, async () => {
      const o = await openDashboard(browser, { theme });
      const asked: { stepFrom: number | null; stepTo: number | null }[] = [];
      o.host.influence = (params) => {
        asked.push({ stepFrom: params.stepFrom, stepTo: params.stepTo });
        return { ...graph, episodes: 120, edges: graph.edges.map((e) => ({ ...e, episodes: 120 })) };
      };
      const page = o.h.page;
      await brushColumns(page, 30, 40, 60);
      const section = page.locator('section.influence');
      await section.locator('.influence-intro', { hasText: 'steps 30–40' }).waitFor();
      assert.deepEqual(asked.at(-1), { stepFrom: 30, stepTo: 40 });
      assert.equal(await section.locator('.influence-table tbody tr').count(), 5);
      assert.deepEqual(await section.locator('.influence-table tbody td:nth-child(6)').allTextContents(), [
        '120',
        '120',
        '120',
        '120',
        '120',
      ]);
      assert.equal(await section.locator('.influence-node.influence-none').count(), 1);
      await noScriptRan(o.h);
      await section.scrollIntoViewIfNeeded();
      await o.h.screenshot(`dashboard-influence-${theme}`);
      await closeDashboard(o);
    });
  }
});
