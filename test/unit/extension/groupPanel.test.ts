import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { DashboardPanel } from '../../../src/extension/panels/dashboardPanel';
import { EpisodePanel } from '../../../src/extension/panels/episodePanel';
import { GroupPanel } from '../../../src/extension/panels/groupPanel';
import { DashboardReadyCommand, OpenGroupCommand as DashboardOpenGroup } from '../../../src/protocol/dashboardPanel';
import {
  DidChangeEpisodeNotification,
  EpisodeReadyCommand,
  OpenGroupCommand as EpisodeOpenGroup,
  type EpisodeViewData,
} from '../../../src/protocol/episodePanel';
import {
  DidChangeGroupNotification,
  GetGroupRequest,
  GroupReadyCommand,
  OpenRolloutCommand,
  type GroupShownData,
  type GroupViewData,
} from '../../../src/protocol/groupPanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { openDatabase } from '../../../src/store/database';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake } from '../fakes/vscode';
import { config, episodeIds, lastPanel, log, posted, settle } from './panelTestKit';

let root: string;
let ids: Record<string, number>;
let runId: number;
const host = { extensionUri: vscode.Uri.file('/ext'), log: log(), config: () => config };

before(async () => {
  root = tempFolder();
  writeFileSync(
    join(root, 'a.jsonl'),
    jsonl(
      episode('e1', { group: 'G', sample: 0, reward: 0 }),
      episode('e2', { group: 'G', sample: 1, reward: 1 }),
      episode('e3', { group: 'H', sample: 0 }),
    ),
  );
  const { index } = await runIndexJob({ root });
  ids = episodeIds(root, ['e1', 'e2', 'e3']);
  const db = openDatabase(index.path, { readonly: true });
  runId = db.prepare<{ id: number }>('SELECT run_id AS id FROM run').get()?.id ?? -1;
  db.close();
});

beforeEach(() => {
  fake.reset();
});

test('GroupPanel: the ready handshake posts the group; its data is answered for the shown group only', async () => {
  const opened: [string, number, ViewMethod][] = [];
  const owner = new GroupPanel({ ...host, openEpisode: (f, e, m) => opened.push([f.fsPath, e, m]) });
  owner.show(vscode.Uri.file(root), runId, 'G', 'loo');
  const panel = lastPanel();
  assert.equal(panel.viewType, 'creditLens.group');
  panel.webview.receive(GroupReadyCommand.with({ stateVersion: 1, ref: null }));
  const ref = { folder: root, runId, group: 'G' };
  const [shown] = posted<GroupShownData>(panel, DidChangeGroupNotification.method);
  assert.deepEqual(
    { ...shown, revision: 0 },
    { ref, defaultMethod: config.defaultMethod, openedMethod: 'loo', revision: 0 },
  );
  // The opening view's method is sent once: the next post (an index change) leaves the choice to the webview.
  owner.refresh(vscode.Uri.file(root));
  const [, again] = posted<GroupShownData>(panel, DidChangeGroupNotification.method);
  assert.equal(again?.openedMethod, null);
  assert.ok((again?.revision ?? 0) > (shown?.revision ?? 0));
  assert.equal(panel.title, 'GRPO Group G');
  panel.webview.receive(GetGroupRequest.with({ ref, method: 'shared' }, 1));
  panel.webview.receive(GetGroupRequest.with({ ref: { ...ref, group: 'H' }, method: 'shared' }, 2));
  await settle();
  const responses = posted<{ ok: boolean; value?: GroupViewData; error?: string }>(
    panel,
    `${GetGroupRequest.method}/response`,
  );
  assert.deepEqual(
    responses[0]?.value?.rollouts.map((r) => [r.externalId, r.reward]),
    [
      ['e2', 1],
      ['e1', 0],
    ],
  );
  assert.deepEqual(responses[1], { ok: false, error: 'that group is no longer shown in this panel' });
  panel.webview.receive(OpenRolloutCommand.with({ ref, episodeId: ids['e1']!, method: 'loo' }));
  panel.webview.receive(OpenRolloutCommand.with({ ref, episodeId: ids['e3']!, method: 'loo' }));
  await settle();
  assert.deepEqual(opened, [[root, ids['e1'], 'loo']], 'a rollout of another group is refused');
  owner.dispose();
});

test('GroupPanel: a restored panel comes back on the group its webview saved', () => {
  const owner = new GroupPanel({ ...host, openEpisode: () => undefined });
  const panel = vscode.window.createWebviewPanel(GroupPanel.viewType, 'restored', vscode.ViewColumn.Active, {});
  owner.restore(panel, { version: 1, ref: { folder: root, runId, group: 'H' }, method: 'loo', focusedEpisode: null });
  const shown = lastPanel();
  shown.webview.receive(GroupReadyCommand.with({ stateVersion: 1, ref: null }));
  assert.equal(posted<GroupShownData>(shown, DidChangeGroupNotification.method)[0]?.ref.group, 'H');
  owner.dispose();
});

test('the Episode view sends its group size and opens its group; the dashboard opens a row’s group', async () => {
  const groups: [string, number, string, ViewMethod | undefined][] = [];
  const openGroup = (f: vscode.Uri, r: number, g: string, m?: ViewMethod): void => {
    groups.push([f.fsPath, r, g, m]);
  };
  const episodes = new EpisodePanel({
    ...host,
    evaluator: () => ({ choice: { kind: 'builtin', name: 'final-answer', options: {} } }),
    openGroup,
  });
  episodes.show(vscode.Uri.file(root), ids['e2']!);
  const panel = lastPanel();
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  assert.equal(posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method)[0]?.groupRollouts, 2);
  panel.webview.receive(EpisodeOpenGroup.with({ ref: { folder: root, episodeId: ids['e2']! }, method: 'shapley' }));
  panel.webview.receive(EpisodeOpenGroup.with({ ref: { folder: root, episodeId: ids['e3']! }, method: 'shapley' }));
  await settle();
  episodes.dispose();
  const dashboard = new DashboardPanel({ ...host, openEpisode: () => undefined, openGroup });
  dashboard.show(vscode.Uri.file(root));
  const board = lastPanel();
  board.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  board.webview.receive(DashboardOpenGroup.with({ folder: root, runId, group: 'H', method: 'loo' }));
  board.webview.receive(DashboardOpenGroup.with({ folder: '/not/shown', runId, group: 'H' }));
  await settle();
  dashboard.dispose();
  assert.deepEqual(groups, [
    [root, runId, 'G', 'shapley'],
    [root, runId, 'H', 'loo'],
  ]);
});
