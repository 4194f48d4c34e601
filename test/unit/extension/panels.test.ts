import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import type { Episode } from '../../../src/core/episode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { DashboardPanel } from '../../../src/extension/panels/dashboardPanel';
import { EpisodePanel } from '../../../src/extension/panels/episodePanel';
import {
  DashboardReadyCommand,
  DashboardRecomputeCommand,
  DidChangeRunsNotification,
  GetEpisodesRequest,
  GetOverviewRequest,
  OpenEpisodeCommand,
  type DashboardRunsData,
} from '../../../src/protocol/dashboardPanel';
import {
  DidChangeEpisodeNotification,
  DidChangeRecomputeNotification,
  EpisodeReadyCommand,
  GetCreditRequest,
  GetMessagesRequest,
  NavigateEpisodeCommand,
  RecomputeCommand,
  type EpisodeCreditView,
  type EpisodeViewData,
  type RecomputeProgress,
} from '../../../src/protocol/episodePanel';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake } from '../fakes/vscode';
import { ask, config, episodeIds, lastPanel, log, posted, settle } from './panelTestKit';

// Two agents whose logged coalition values make the solver decisive: LOO gives the solver 1 and the planner 0.
const coalitions: Episode['coalitions'] = [
  { agents: [], value: 0 },
  { agents: ['planner'], value: 0 },
  { agents: ['solver'], value: 1 },
  { agents: ['planner', 'solver'], value: 1 },
];

let root: string;
let ids: Record<string, number>;

before(async () => {
  root = tempFolder();
  writeFileSync(
    join(root, 'a.jsonl'),
    jsonl(episode('e1', { coalitions }), episode('e2', { step: 2, coalitions }), episode('e3', { step: 3 })),
  );
  await runIndexJob({ root, search: true });
  ids = episodeIds(root, ['e1', 'e2', 'e3']);
});

beforeEach(() => {
  fake.reset();
});

function episodePanel(): EpisodePanel {
  return new EpisodePanel({
    extensionUri: vscode.Uri.file('/ext'),
    log: log(),
    config: () => config,
    evaluator: () => ({ choice: { kind: 'builtin', name: 'final-answer', options: {} } }),
  });
}

test('EpisodePanel: after the ready handshake the episode is posted, with the evaluator state', () => {
  const owner = episodePanel();
  owner.show(vscode.Uri.file(root), ids['e1']!);
  const panel = lastPanel();
  assert.equal(panel.viewType, 'creditLens.episode');
  assert.deepEqual(panel.webview.posted, []);
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  const [data] = posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method);
  assert.equal(data?.externalId, 'e1');
  assert.deepEqual(data?.ref, { folder: root, episodeId: ids['e1'] });
  assert.equal(data?.messageCount, 2);
  assert.equal(panel.title, 'Episode e1');
  // The demo builder logs no ground truth: the built-in final-answer evaluator cannot judge it.
  assert.equal(data?.evaluator.configured, false);
  assert.match(data?.evaluator.reason ?? '', /ground truth/);
  owner.dispose();
});

test('EpisodePanel: message windows and credit are answered for the shown episode only', async () => {
  const owner = episodePanel();
  owner.show(vscode.Uri.file(root), ids['e1']!);
  const panel = lastPanel();
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  const ref = { folder: root, episodeId: ids['e1']! };
  const window = await ask<{ messages: { agent: string; content: string }[] }>(
    panel,
    GetMessagesRequest.with({ ref, offset: 0, limit: 10 }, 1),
  );
  assert.deepEqual(
    window.value?.messages.map((m) => m.agent),
    ['planner', 'solver'],
  );
  assert.equal(window.value?.messages[0]?.content, 'Plan for e1: add the numbers.');
  const other = await ask(
    panel,
    GetMessagesRequest.with({ ref: { folder: '/elsewhere', episodeId: 1 }, offset: 0, limit: 10 }, 2),
  );
  assert.equal(other.ok, false);
  const shared = await ask<EpisodeCreditView>(panel, GetCreditRequest.with({ ref, method: 'shared' }, 3));
  assert.equal(shared.value?.status, 'computed');
  assert.deepEqual(
    shared.value?.agents.map((a) => a.value),
    [1, 1],
  );
  owner.dispose();
});

test('EpisodePanel: Recompute runs the engine on this episode, reports progress, and the credit is then stored', async () => {
  const owner = episodePanel();
  owner.show(vscode.Uri.file(root), ids['e1']!);
  const panel = lastPanel();
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  const ref = { folder: root, episodeId: ids['e1']! };
  const before = await ask<EpisodeCreditView>(panel, GetCreditRequest.with({ ref, method: 'loo' }, 1));
  assert.notEqual(before.value?.status, 'computed');
  panel.webview.receive(RecomputeCommand.with({ ref, method: 'loo' }));
  for (
    let i = 0;
    i < 100 &&
    !posted<RecomputeProgress>(panel, DidChangeRecomputeNotification.method).some((p) => p.state !== 'running');
    i++
  )
    await settle();
  const states = posted<RecomputeProgress>(panel, DidChangeRecomputeNotification.method).map((p) => p.state);
  assert.equal(states[0], 'running');
  assert.equal(states.at(-1), 'done');
  const after = await ask<EpisodeCreditView>(panel, GetCreditRequest.with({ ref, method: 'loo' }, 2));
  assert.equal(after.value?.status, 'computed');
  assert.deepEqual(
    after.value?.agents.map((a) => [a.agent, a.value]),
    [
      ['planner', 0],
      ['solver', 1],
    ],
  );
  // Only the shown episode was computed.
  const e2 = { folder: root, episodeId: ids['e2']! };
  owner.show(vscode.Uri.file(root), e2.episodeId);
  const other = await ask<EpisodeCreditView>(panel, GetCreditRequest.with({ ref: e2, method: 'loo' }, 3));
  assert.notEqual(other.value?.status, 'computed');
  owner.dispose();
});

test('EpisodePanel: n/p navigation moves through the run in step order', () => {
  const owner = episodePanel();
  owner.show(vscode.Uri.file(root), ids['e1']!);
  const panel = lastPanel();
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  panel.webview.receive(NavigateEpisodeCommand.with({ direction: 'next' }));
  panel.webview.receive(NavigateEpisodeCommand.with({ direction: 'previous' }));
  panel.webview.receive(NavigateEpisodeCommand.with({ direction: 'previous' }));
  return settle().then(() => {
    const shown = posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method).map((d) => d.externalId);
    assert.deepEqual(shown, ['e1', 'e2', 'e1']);
    assert.equal(fake.panels.length, 1, 'one panel, reused');
    owner.dispose();
  });
});

test('EpisodePanel: a change to another folder’s index does not re-send the episode; one to its own does', () => {
  const owner = episodePanel();
  owner.show(vscode.Uri.file(root), ids['e1']!);
  const panel = lastPanel();
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  owner.refresh(vscode.Uri.file('/another/folder'));
  assert.equal(posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method).length, 1);
  owner.refresh(vscode.Uri.file(root));
  assert.equal(posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method).length, 2);
  owner.dispose();
});

function dashboardPanel(opened: [string, number][] = []): DashboardPanel {
  return new DashboardPanel({
    extensionUri: vscode.Uri.file('/ext'),
    log: log(),
    config: () => config,
    evaluator: () => ({ choice: { kind: 'builtin', name: 'final-answer', options: {} } }),
    openEpisode: (folder, episodeId) => opened.push([folder.fsPath, episodeId]),
  });
}

test('DashboardPanel: posts the runs after ready; refresh() bumps the revision', () => {
  const owner = dashboardPanel();
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  assert.equal(panel.viewType, 'creditLens.dashboard');
  panel.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  owner.refresh(vscode.Uri.file(root));
  owner.refresh(vscode.Uri.file('/another/folder'));
  const runs = posted<DashboardRunsData>(panel, DidChangeRunsNotification.method);
  assert.deepEqual(
    runs.map((r) => r.revision),
    [runs[0]!.revision, runs[0]!.revision + 1],
  );
  assert.equal(runs[0]?.folder, root);
  assert.equal(runs[0]?.runs[0]?.episodes, 3);
  assert.deepEqual(runs[0]?.runs[0]?.agents, ['planner', 'solver']);
  owner.dispose();
});

test('DashboardPanel: show() on a run and steps posts a focus, kept by refreshes and renewed by the next show()', () => {
  const owner = dashboardPanel();
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  panel.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  const runId = posted<DashboardRunsData>(panel, DidChangeRunsNotification.method)[0]!.runs[0]!.runId;
  owner.show(vscode.Uri.file(root), runId, [2, 3]);
  owner.refresh(vscode.Uri.file(root));
  owner.show(vscode.Uri.file(root), runId);
  owner.show(vscode.Uri.file(root));
  const focus = posted<DashboardRunsData>(panel, DidChangeRunsNotification.method).map((r) => r.focus);
  assert.equal(focus[0], undefined, 'opened without a run: nothing to focus');
  assert.deepEqual(focus[1], { id: focus[1]?.id, runId, steps: { from: 2, to: 3 } });
  assert.equal(focus[2]?.id, focus[1]?.id, 'a refresh re-sends the same focus');
  assert.deepEqual([focus[3]?.steps, focus[3]!.id > focus[1].id], [null, true]);
  assert.equal(focus.at(-1), undefined);
  assert.equal(posted<DashboardRunsData>(panel, DidChangeRunsNotification.method).at(-1)?.selectedRunId, runId);
  owner.dispose();
});

test('DashboardPanel: overview and table pages are answered; opening an episode goes to the Episode view', async () => {
  const opened: [string, number][] = [];
  const owner = dashboardPanel(opened);
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  panel.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  const runId = posted<DashboardRunsData>(panel, DidChangeRunsNotification.method)[0]!.runs[0]!.runId;
  const overview = await ask<{ steps: number[] }>(
    panel,
    GetOverviewRequest.with({ folder: root, runId, method: 'shared' }, 1),
  );
  assert.deepEqual(overview.value?.steps, [1, 2, 3]);
  const page = await ask<{ total: number; rows: { externalId: string }[] }>(
    panel,
    GetEpisodesRequest.with(
      { folder: root, runId, filter: { stepFrom: 2 }, sort: { key: 'step', descending: true }, offset: 0, limit: 50 },
      2,
    ),
  );
  assert.deepEqual(
    page.value?.rows.map((r) => r.externalId),
    ['e3', 'e2'],
  );
  assert.equal(page.value?.total, 2);
  panel.webview.receive(OpenEpisodeCommand.with({ folder: root, episodeId: ids['e2']! }));
  panel.webview.receive(OpenEpisodeCommand.with({ folder: '/not/shown', episodeId: ids['e2']! }));
  await settle();
  assert.deepEqual(opened, [[root, ids['e2']]]);
  owner.dispose();
});

test('DashboardPanel: Recompute computes the run under a progress notification and bumps the revision', async () => {
  const owner = dashboardPanel();
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  panel.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  const runId = posted<DashboardRunsData>(panel, DidChangeRunsNotification.method)[0]!.runs[0]!.runId;
  const credited: string[] = [];
  const withHook = new DashboardPanel({
    extensionUri: vscode.Uri.file('/ext'),
    log: log(),
    config: () => config,
    evaluator: () => ({ choice: { kind: 'builtin', name: 'final-answer', options: {} } }),
    openEpisode: () => undefined,
    onCredited: (folder) => credited.push(folder.fsPath),
  });
  owner.dispose();
  withHook.show(vscode.Uri.file(root));
  const second = lastPanel();
  second.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  second.webview.receive(DashboardRecomputeCommand.with({ folder: root, runId, method: 'loo' }));
  for (let i = 0; i < 100 && credited.length === 0; i++) await settle();
  assert.deepEqual(credited, [root]);
  assert.equal(fake.progress.length, 1);
  assert.match(
    String(fake.progress[0]?.options.title),
    /^Credit Lens: Leave-one-out credit of /,
    'the method by its name',
  );
  const overview = await ask<{ status: string; meanCredit: { rows: string[]; values: (number | null)[] } }>(
    second,
    GetOverviewRequest.with({ folder: root, runId, method: 'loo' }, 9),
  );
  assert.equal(overview.value?.status, 'computed');
  withHook.dispose();
});
