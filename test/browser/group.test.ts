// The GRPO group webview (webview/src/group) in headless Chromium under the production CSP, in the
// light, dark and high-contrast themes, with markup payloads in episode ids, agent names and the
// group id; and the Episode view's link to it. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenGroupCommand } from '../../src/protocol/episodePanel';
import {
  DidChangeGroupNotification,
  GetGroupRequest,
  GroupReadyCommand,
  OpenRolloutCommand,
  type GroupRef,
  type GroupRolloutView,
  type GroupViewData,
} from '../../src/protocol/groupPanel';
import type { IpcMessage } from '../../src/protocol/ipc';
import { episodeData, scriptedHost } from './episode/fixture';
import { openEpisode } from './episode/session';
import type { HarnessBrowser, WebviewHarness } from './harness/harness';
import type { HarnessTheme } from './harness/server';
import { noScriptRan } from './harness/noScriptRan';
import { describeInBrowser } from './harness/suite';

const img = '<img src=x onerror=alert(1)>';
const script = '</script><script>window.__xss=1</script>';
const ref: GroupRef = { folder: '/runs/demo', runId: 1, group: `g-${img}` };
const entry = { script: 'group', styles: ['webview.css', 'group.css'] } as const;

function rollout(
  externalId: string,
  episodeId: number,
  reward: number | null,
  credit: (number | null)[],
): GroupRolloutView {
  return {
    episodeId,
    externalId,
    step: 5,
    sample: episodeId - 1,
    reward,
    inRoster: [true, true],
    advantages: [
      [reward === null ? null : reward - 0.5],
      [null, 0.25],
      credit.map((c) => (c === null ? null : c - 0.1)),
    ],
    creditStatus: 'computed',
    creditReason: null,
    creditRemedy: null,
    credit: credit.map((value) => ({ value, status: value === null ? null : 'exact', advantage: value })),
  };
}

/** Four rollouts, best reward first; the last one's credit is not identifiable. */
const group: GroupViewData = {
  ref,
  runName: `run ${script}`,
  method: 'loo',
  steps: [5],
  agents: [img, script],
  rollouts: [
    rollout(`ep-${img}`, 2, 1, [0.4, 0.1]),
    rollout(`ep-${script}`, 3, 0.6, [0.2, null]),
    rollout('ep-plain', 1, 0.2, [-0.3, 0.05]),
    {
      ...rollout('ep-none', 4, 0.2, [null, null]),
      creditStatus: 'not-identifiable',
      creditReason: `no values ${img}`,
      creditRemedy: 'log counterfactuals',
    },
  ],
  rewardMean: 0.5,
  rewardStd: 0.383,
  rewarded: 4,
  convention: {
    name: 'verl',
    formula: '(r − mean) / (std + ε) over 4 rollouts',
    detail: 'sample std, eps 1e-6; default',
  },
  signals: [
    { id: 'reward', perAgent: false, covered: 4 },
    { id: 'logged', perAgent: true, covered: 2 },
    { id: 'loo', perAgent: true, covered: 3 },
  ],
  creditStatus: 'computed',
  credited: 3,
  notes: ["loo credit covers 3 of 4 rollouts; 1 not identifiable from the data (see each rollout's remedy)."],
  // Narrower than the largest credit (0.4), so one cell is marked beyond the run's fixed scale.
  creditDomain: { bound: 0.3, reward: { min: 0, max: 0.3 } },
};

function host(data: GroupViewData) {
  return (message: IpcMessage): unknown => {
    if (GetGroupRequest.is(message)) return { ...data, method: message.params.method };
    return undefined;
  };
}

async function openGroup(browser: HarnessBrowser, data: GroupViewData, theme?: HarnessTheme): Promise<WebviewHarness> {
  const h = await browser.open({ entry, host: host(data), ...(theme ? { theme } : {}) });
  await h.waitForPosted((m) => GroupReadyCommand.is(m));
  await h.notify(DidChangeGroupNotification, { ref, defaultMethod: 'loo', openedMethod: null, revision: 1 });
  await h.page.locator('table.rollouts').or(h.page.locator('.notes')).first().waitFor();
  return h;
}

describeInBrowser('GRPO group webview', (browser) => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`rollouts side by side, trace text as text, honest empty cells (${theme})`, async () => {
      const h = await openGroup(browser, group, theme);
      const page = h.page;
      assert.equal(await page.locator('h1').textContent(), `GRPO group g-${img}`);
      assert.equal(await page.locator('.fact', { hasText: 'Run' }).locator('dd').textContent(), `run ${script}`);
      assert.equal(await page.locator('.fact', { hasText: 'Rollouts' }).locator('dd').textContent(), '4 rollouts');
      assert.equal(await page.locator('.fact', { hasText: 'Mean reward' }).locator('dd').textContent(), '0.500');
      assert.match(
        (await page.locator('.convention').textContent()) ?? '',
        /verl — \(r − mean\) \/ \(std \+ ε\) over 4 rollouts/,
      );
      const rows = page.locator('table.rollouts tbody tr');
      assert.equal(await rows.count(), 4);
      assert.deepEqual(await page.locator('button.rollout-open').allTextContents(), [
        `ep-${img}`,
        `ep-${script}`,
        'ep-plain',
        'ep-none',
      ]);
      assert.deepEqual(await page.locator('table.rollouts .reward-cell').allTextContents(), [
        '1.000',
        '0.600',
        '0.200',
        '0.200',
      ]);
      assert.deepEqual(await page.locator('table.rollouts thead .agent-name').allTextContents(), [
        img,
        img,
        script,
        script,
      ]);
      // Credit with its provenance; "no credit" and "not identifiable" in words, never a number.
      // On the run's fixed domain (±0.30, as in the Episode view), not the largest value shown: 0.4 is beyond it.
      assert.equal(await rows.nth(0).locator('.credit-cell').first().textContent(), '+0.400▲ exact');
      assert.match(
        (await rows.nth(0).locator('.credit-cell').first().getAttribute('title')) ?? '',
        /beyond the scale's \+0\.30/,
      );
      assert.deepEqual(await page.locator('.credit-ramp .ramp-end').allTextContents(), ['−0.30', '+0.30']);
      const zeroWithin = await rows.nth(2).locator('.credit-cell').nth(1).getAttribute('title');
      assert.equal(zeroWithin, null, 'a value inside the domain has no beyond-the-scale note');
      assert.equal(await rows.nth(1).locator('.empty-cell', { hasText: 'no credit' }).count(), 1);
      const unidentified = rows.nth(3).locator('.empty-cell', { hasText: 'not identifiable' });
      assert.equal(await unidentified.count(), 2);
      assert.equal(await unidentified.first().getAttribute('title'), `no values ${img} — log counterfactuals`);
      assert.equal(await page.locator('.notice').textContent(), group.notes[0]);
      // Every signal the index has, with its coverage.
      assert.deepEqual(await page.locator('table.signals .signal-head').allTextContents(), [
        'Team reward (4 of 4)',
        'Logged by the trainer (2 of 4)',
        'Leave-one-out credit (3 of 4)',
      ]);
      assert.deepEqual(await page.locator('table.signals .episode-name').allTextContents(), [
        `ep-${img}`,
        `ep-${script}`,
        'ep-plain',
        'ep-none',
      ]);
      await noScriptRan(h);
      await h.screenshot(`group-${theme}`);
      await h.close();
    });
  }

  test('keyboard: Tab reaches the rollouts, arrows move between them, Enter opens one under the method', async () => {
    const h = await openGroup(browser, group);
    await h.page.locator('button.rollout-open').first().focus();
    await h.page.keyboard.press('ArrowDown');
    await h.page.keyboard.press('Enter');
    const opened = await h.waitForPosted((m) => OpenRolloutCommand.is(m));
    assert.deepEqual(opened.params, { ref, episodeId: 3, method: 'loo' });
    // The focused rollout survives a reload (the saved state), the group is asked for again.
    await h.reload();
    await h.waitForPosted((m) => GroupReadyCommand.is(m) && (m.params as { ref: unknown }).ref !== null);
    await h.notify(DidChangeGroupNotification, { ref, defaultMethod: 'shared', openedMethod: null, revision: 2 });
    await h.page.locator('table.rollouts').waitFor();
    const focused = await h.page.evaluate(
      () =>
        (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement
          .textContent,
    );
    assert.equal(focused, `ep-${script}`);
    await h.close();
  });

  test('a group of one rollout and a run without groups say so, with no table of numbers', async () => {
    const single = {
      ...group,
      rollouts: [{ ...rollout('solo', 1, 1, [0.1, 0.2]), advantages: [[null], [null, null], [null, null]] }],
      rewardStd: null,
      notes: [
        'A group of 1 rollout: a group-relative advantage is undefined (there is no other rollout of the prompt to compare with).',
      ],
    };
    const h = await openGroup(browser, single);
    assert.match((await h.page.locator('.notice').first().textContent()) ?? '', /^A group of 1 rollout/);
    assert.equal(await h.page.locator('.fact', { hasText: 'Std of reward' }).locator('dd').textContent(), 'undefined');
    assert.equal(
      await h.page.locator('table.rollouts tbody tr td').nth(4).getAttribute('title'),
      'Undefined for a group of 1 rollout',
    );
    await h.close();
    const empty = await openGroup(browser, {
      ...group,
      rollouts: [],
      agents: [],
      signals: [],
      notes: ['Run flat logs no GRPO groups: none of its episodes carries a group id.'],
    });
    await empty.page.locator('.notice', { hasText: 'logs no GRPO groups' }).waitFor();
    assert.equal(await empty.page.locator('table').count(), 0);
    await empty.close();
  });

  test('the Episode view links to its group: "group g · n rollouts", opened under its method', async () => {
    const s = await openEpisode(browser, {
      host: scriptedHost({ count: 5 }),
      data: episodeData(5, { group: `g-${img}`, groupRollouts: 4 }),
    });
    const link = s.h.page.locator('.group-link button');
    await link.waitFor();
    assert.equal(await link.textContent(), `group g-${img} · 4 rollouts`);
    await link.focus();
    await s.h.page.keyboard.press('Enter');
    const sent = await s.h.waitForPosted((m) => OpenGroupCommand.is(m));
    assert.equal((sent.params as { ref: { episodeId: number } }).ref.episodeId, 42);
    await noScriptRan(s.h);
    await s.close();
  });
});
