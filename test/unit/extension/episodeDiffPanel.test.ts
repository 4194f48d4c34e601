import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { diffWithCommand, openEpisodeDiffCommand } from '../../../src/extension/commands/openEpisodeDiffCommand';
import { EpisodeDiffPanel } from '../../../src/extension/panels/episodeDiffPanel';
import { EpisodePanel } from '../../../src/extension/panels/episodePanel';
import { GroupPanel } from '../../../src/extension/panels/groupPanel';
import {
  DidChangeDiffNotification,
  DiffReadyCommand,
  GetDiffRequest,
  GetDiffTextsRequest,
  OpenDiffSideCommand,
  type DiffShownData,
  type DiffTextWindow,
  type EpisodeDiffData,
} from '../../../src/protocol/episodeDiffPanel';
import { DiffWithCommand, EpisodeReadyCommand } from '../../../src/protocol/episodePanel';
import { DiffRolloutCommand, GroupReadyCommand } from '../../../src/protocol/groupPanel';
import type { EpisodeRef, ViewMethod } from '../../../src/protocol/viewData';
import { openDatabase } from '../../../src/store/database';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake } from '../fakes/vscode';
import { ask, config, episodeIds, lastPanel, log, posted, settle } from './panelTestKit';

// The diff panel and its command with the fake vscode, on an indexed folder: e1 and e2 are the two
// rollouts of group G (rewards 0 and 1, the builder's planner and solver messages), e3 is in group H.

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
  await runIndexJob({ root });
  ids = episodeIds(root, ['e1', 'e2', 'e3']);
  const db = openDatabase(join(root, '.credit-lens', 'index.sqlite'), { readonly: true });
  runId = db.prepare<{ id: number }>('SELECT run_id AS id FROM run').get()?.id ?? -1;
  db.close();
});

beforeEach(() => {
  fake.reset();
});

const side = (name: string): EpisodeRef => ({ folder: root, episodeId: ids[name] ?? -1 });

test('EpisodeDiffPanel: the handshake posts the pair; rows and texts are answered for the shown pair only', async () => {
  const opened: [string, number, ViewMethod][] = [];
  const owner = new EpisodeDiffPanel({ ...host, openEpisode: (f, e, m) => opened.push([f.fsPath, e, m]) });
  owner.show(side('e1'), side('e2'), 'loo');
  const panel = lastPanel();
  assert.equal(panel.viewType, 'creditLens.episodeDiff');
  panel.webview.receive(DiffReadyCommand.with({ stateVersion: 1, ref: null }));
  const ref = { a: side('e1'), b: side('e2') };
  const [shown] = posted<DiffShownData>(panel, DidChangeDiffNotification.method);
  assert.deepEqual(
    { ...shown, revision: 0 },
    { ref, defaultMethod: config.defaultMethod, openedMethod: 'loo', revision: 0 },
  );
  assert.equal(panel.title, 'Diff e1 ↔ e2');
  const diff = await ask<EpisodeDiffData>(panel, GetDiffRequest.with({ ref, method: 'shared' }, 1));
  assert.deepEqual(
    diff.value?.rows.map((r) => [r.kind, r.agent, r.creditA, r.creditB, r.delta, r.textChanged]),
    [
      // "Plan for e1: …" against "Plan for e2: …"; the solver's "2 + 2 = 4 #### 4" on both sides.
      ['paired', 'planner', 0, 1, 1, true],
      ['paired', 'solver', 0, 1, 1, false],
    ],
  );
  assert.equal(diff.value?.rewardDelta, 1);
  const texts = await ask<DiffTextWindow>(panel, GetDiffTextsRequest.with({ ref, offset: 0, limit: 1 }, 2));
  assert.deepEqual(texts.value?.rows[0]?.b?.spans, [
    { text: 'Plan for ', changed: false },
    { text: 'e2: ', changed: true },
    { text: 'add the numbers.', changed: false },
  ]);
  const other = await ask(panel, GetDiffRequest.with({ ref: { a: side('e1'), b: side('e3') }, method: 'shared' }, 3));
  assert.deepEqual(other, { ok: false, error: 'that pair is no longer shown in this panel' });
  panel.webview.receive(OpenDiffSideCommand.with({ ref, side: 'b', method: 'shared' }));
  panel.webview.receive(
    OpenDiffSideCommand.with({ ref: { a: side('e3'), b: side('e2') }, side: 'a', method: 'shared' }),
  );
  await settle();
  assert.deepEqual(opened, [[root, ids['e2'], 'shared']], 'an episode of another pair is refused');
  // An index change sends the pair again with a higher revision, and the opening method only once.
  owner.refresh(vscode.Uri.file(root));
  const [, again] = posted<DiffShownData>(panel, DidChangeDiffNotification.method);
  assert.equal(again?.openedMethod, null);
  assert.ok((again?.revision ?? 0) > (shown?.revision ?? 0));
  owner.dispose();
});

test('EpisodeDiffPanel: a restored panel comes back on the pair its webview saved; a gone episode is said', async () => {
  const owner = new EpisodeDiffPanel({ ...host, openEpisode: () => undefined });
  const revived = vscode.window.createWebviewPanel(EpisodeDiffPanel.viewType, 'restored', vscode.ViewColumn.Active, {});
  const ref = { a: side('e3'), b: { folder: root, episodeId: 999_999 } };
  owner.restore(revived, { version: 1, ref, method: 'loo', focusedRow: 4 });
  const panel = lastPanel();
  panel.webview.receive(DiffReadyCommand.with({ stateVersion: 1, ref: null }));
  assert.deepEqual(posted<DiffShownData>(panel, DidChangeDiffNotification.method)[0]?.ref, ref);
  assert.deepEqual(await ask(panel, GetDiffRequest.with({ ref, method: 'loo' }, 1)), {
    ok: false,
    error: 'an episode of the pair is no longer in the index; re-index the folder',
  });
  owner.dispose();
});

test('creditLens.openEpisodeDiff: {a, b} by row id or trace id; an id no episode has is said, nothing opened', async () => {
  const shown: [EpisodeRef, EpisodeRef][] = [];
  const command = openEpisodeDiffCommand({ log: log(), config: () => config, show: (a, b) => shown.push([a, b]) });
  await command({ a: { run: root, episodeId: 'e1' }, b: { run: vscode.Uri.file(root), episodeId: ids['e3'] } });
  assert.deepEqual(shown, [[side('e1'), side('e3')]]);
  await command({ a: { run: root, episodeId: 'nope' }, b: { run: root, episodeId: 'e2' } });
  assert.equal(shown.length, 1);
  assert.match(fake.messages.at(-1)?.text ?? '', /No episode with id "nope" in the index of/);
  // From the palette: the folder, then A by id, then B among A's group's other rollouts.
  fake.answerQuickPick = (items) => items[0];
  const palette = openEpisodeDiffCommand({
    log: log(),
    config: () => config,
    chooseFolder: () => Promise.resolve(vscode.Uri.file(root)),
    askId: () => Promise.resolve({ kind: 'typed', id: 'e2' }),
    show: (a, b) => shown.push([a, b]),
  });
  await palette();
  assert.deepEqual(shown[1], [side('e2'), side('e1')]);
  assert.deepEqual(
    (fake.quickPicks.at(-1)?.items as { label: string }[]).map((i) => i.label),
    ['e1', '$(search) Another episode by id…'],
  );
});

test('"Diff with…" from the Episode and group views asks for the partner and opens the pair under the view’s method', async () => {
  const shown: [EpisodeRef, EpisodeRef, ViewMethod | undefined][] = [];
  const diffWith = diffWithCommand({ log: log(), config: () => config, show: (a, b, m) => shown.push([a, b, m]) });
  const asked: [string, number, ViewMethod][] = [];
  const episodes = new EpisodePanel({
    ...host,
    evaluator: () => ({ choice: { kind: 'builtin', name: 'final-answer', options: {} } }),
    diffWith: (f, e, m) => {
      asked.push([f.fsPath, e, m]);
      void diffWith(f, e, m);
    },
  });
  episodes.show(vscode.Uri.file(root), ids['e1']!);
  const panel = lastPanel();
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  fake.answerQuickPick = (items) => items[0];
  panel.webview.receive(DiffWithCommand.with({ ref: side('e1'), method: 'owen' }));
  panel.webview.receive(DiffWithCommand.with({ ref: side('e2'), method: 'owen' }));
  await settle();
  assert.deepEqual(asked, [[root, ids['e1'], 'owen']], 'only the shown episode');
  assert.deepEqual(shown, [[side('e1'), side('e2'), 'owen']]);
  episodes.dispose();
  const groups = new GroupPanel({
    ...host,
    openEpisode: () => undefined,
    diffWith: (f, e, m) => asked.push([f.fsPath, e, m]),
  });
  groups.show(vscode.Uri.file(root), runId, 'G');
  const group = lastPanel();
  group.webview.receive(GroupReadyCommand.with({ stateVersion: 1, ref: null }));
  const ref = { folder: root, runId, group: 'G' };
  group.webview.receive(DiffRolloutCommand.with({ ref, episodeId: ids['e2']!, method: 'loo' }));
  group.webview.receive(DiffRolloutCommand.with({ ref, episodeId: ids['e3']!, method: 'loo' }));
  await settle();
  assert.deepEqual(asked.slice(1), [[root, ids['e2'], 'loo']], 'a rollout of another group is refused');
  groups.dispose();
});
