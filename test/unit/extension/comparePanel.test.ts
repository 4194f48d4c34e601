import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import type { ComparisonRequest, RunComparer, RunComparison } from '../../../src/core/runComparison';
import { runIndexJob } from '../../../src/engine/indexJob';
import { ComparePanel } from '../../../src/extension/panels/comparePanel';
import {
  CompareReadyCommand,
  CompareRunsRequest,
  DidChangeCompareNotification,
  GetCompareChoicesRequest,
  OpenCompareEpisodeCommand,
  type CompareChoicesView,
  type CompareShownData,
  type ComparisonView,
} from '../../../src/protocol/comparePanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { openDatabase } from '../../../src/store/database';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake } from '../fakes/vscode';
import { ask, config, lastPanel, log, posted, settle } from './panelTestKit';

let root: string;
/** Row ids of the episode `same` in run `before` and in run `after` (one id, two runs). */
let rowIds: { before: number; after: number };

before(async () => {
  root = tempFolder('credit-lens-compare-');
  for (const run of ['before', 'after']) {
    mkdirSync(join(root, run));
    writeFileSync(join(root, run, 'run.json'), JSON.stringify({ format: 'credit-lens', version: '1.0', name: run }));
    writeFileSync(join(root, run, 'a.jsonl'), jsonl(episode('other'), episode('same')));
  }
  const { index } = await runIndexJob({ root });
  const db = openDatabase(index.path, { readonly: true });
  const rowOf = (run: string): number =>
    db
      .prepare<{ id: number }>(
        `SELECT e.episode_id AS id FROM episode e JOIN run r ON r.run_id = e.run_id WHERE r.name = ? AND e.external_id = 'same'`,
      )
      .get(run)?.id ?? -1;
  rowIds = { before: rowOf('before'), after: rowOf('after') };
  db.close();
});

beforeEach(() => {
  fake.reset();
});

/** One hand-built comparison: a single pair, so the interval and p are NaN (undefined), as the engine leaves them. */
function comparison(request: ComparisonRequest): RunComparison {
  const single = {
    n: 1,
    meanA: 0.2,
    meanB: 0.5,
    difference: 0.3,
    interval: [NaN, NaN] as const,
    p: NaN,
    test: 't' as const,
  };
  return {
    a: { ...request.a, label: 'A' },
    b: { ...request.b, label: 'B' },
    method: request.method,
    pairing: { key: 'task', pairs: 1, episodesA: 2, episodesB: 2, unpairedA: 1, unpairedB: 1, ambiguousKeys: 0 },
    reward: single,
    agents: [{ agent: 'verifier', credit: single, shareA: 0.1, shareB: NaN, statusA: 'exact', statusB: 'exact' }],
    flags: [{ agent: 'verifier', kind: 'free-rider', change: 'disappeared', stepsA: [25, 40] }],
    examples: [{ key: 'task-1', episodeA: 'same', episodeB: 'same', agent: 'verifier', creditA: 0.2, creditB: 0.5 }],
    notes: ['1 episode of A and 1 of B had no partner.'],
  };
}

/** A fake engine: records what it was asked, answers with {@link comparison}, refuses method `none`. */
function fakeComparer(asked: ComparisonRequest[]): (db: unknown) => RunComparer {
  return () => ({
    choices: () => [
      { run: 'before', episodes: 2, steps: { from: 0, to: 0 }, methods: ['loo'] },
      { run: 'after', episodes: 2, methods: ['loo', 'shapley'] },
    ],
    compare: (request) => {
      asked.push(request);
      if (request.method === 'none') throw new Error('run `credit-lens credit <dir> --method none` first');
      return comparison(request);
    },
  });
}

function comparePanel(
  asked: ComparisonRequest[],
  opened: [string, number, ViewMethod | undefined][] = [],
): ComparePanel {
  return new ComparePanel({
    extensionUri: vscode.Uri.file('/ext'),
    log: log(),
    config: () => config,
    comparer: fakeComparer(asked),
    openEpisode: (folder, episodeId, method) => opened.push([folder.fsPath, episodeId, method]),
  });
}

const request: ComparisonRequest = {
  a: { run: 'before' },
  b: { run: 'after', steps: { from: 1, to: 9 } },
  method: 'loo',
};

test('ComparePanel: the ready handshake posts the folder; its runs are answered for the shown folder only', async () => {
  const owner = comparePanel([]);
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  assert.equal(panel.viewType, 'creditLens.compare');
  assert.equal(posted(panel, DidChangeCompareNotification.method).length, 0, 'nothing posted before ready');
  panel.webview.receive(CompareReadyCommand.with({ stateVersion: 1, folder: null }));
  const [shown] = posted<CompareShownData>(panel, DidChangeCompareNotification.method);
  assert.equal(shown?.folder, root);
  assert.equal(shown.defaultMethod, config.defaultMethod);
  owner.refresh(vscode.Uri.file('/another/folder'));
  assert.equal(posted(panel, DidChangeCompareNotification.method).length, 1, 'another folder’s change is not ours');
  owner.refresh(vscode.Uri.file(root));
  const [, again] = posted<CompareShownData>(panel, DidChangeCompareNotification.method);
  assert.ok((again?.revision ?? 0) > shown.revision, 'an index change raises the revision');
  const choices = await ask<CompareChoicesView>(panel, GetCompareChoicesRequest.with({ folder: root }, 1));
  assert.deepEqual(
    choices.value?.runs.map((r) => [r.run, r.methods]),
    [
      ['before', ['loo']],
      ['after', ['loo', 'shapley']],
    ],
  );
  const elsewhere = await ask(panel, GetCompareChoicesRequest.with({ folder: '/not/shown' }, 2));
  assert.deepEqual(elsewhere, { ok: false, error: 'that folder is no longer shown in this panel' });
  owner.dispose();
});

test('ComparePanel: a comparison reaches the engine without extra fields; NaN travels as null; engine errors are answered', async () => {
  const asked: ComparisonRequest[] = [];
  const owner = comparePanel(asked);
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  panel.webview.receive(CompareReadyCommand.with({ stateVersion: 1, folder: null }));
  const sneaky = {
    ...request,
    a: { run: 'before', label: 'x', sql: 'DROP' },
    extra: 1,
  } as unknown as ComparisonRequest;
  const answer = await ask<ComparisonView>(panel, CompareRunsRequest.with({ folder: root, request: sneaky }, 1));
  assert.deepEqual(asked, [{ a: { run: 'before' }, b: { run: 'after', steps: { from: 1, to: 9 } }, method: 'loo' }]);
  assert.equal(answer.ok, true);
  assert.deepEqual(answer.value?.reward.interval, [null, null], 'an undefined interval is null, never a number');
  assert.equal(answer.value?.reward.p, null);
  assert.equal(answer.value?.agents[0]?.shareB, null);
  assert.equal(answer.value?.agents[0]?.shareA, 0.1);
  const refused = await ask(
    panel,
    CompareRunsRequest.with({ folder: root, request: { ...request, method: 'none' } }, 2),
  );
  assert.deepEqual(refused, { ok: false, error: 'run `credit-lens credit <dir> --method none` first' });
  // Malformed requests never reach the engine: a step range backwards, a method that is not an id, a missing side.
  for (const bad of [
    { ...request, a: { run: 'before', steps: { from: 5, to: 1 } } },
    { ...request, method: 'LOO; drop' },
    { a: request.a, method: 'loo' },
  ])
    panel.webview.receive({ method: CompareRunsRequest.method, params: { folder: root, request: bad }, id: 9 });
  await settle();
  assert.equal(asked.length, 2);
  owner.dispose();
});

test('ComparePanel: "Open A/B" opens an example pair’s episode of that side’s run, under the method; anything else is refused', async () => {
  const opened: [string, number, ViewMethod | undefined][] = [];
  const owner = comparePanel([], opened);
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  panel.webview.receive(CompareReadyCommand.with({ stateVersion: 1, folder: null }));
  const open = (side: 'a' | 'b', run: string, episodeId: string): void => {
    panel.webview.receive(OpenCompareEpisodeCommand.with({ folder: root, side, run, episode: episodeId }));
  };
  open('a', 'before', 'same');
  await settle();
  assert.deepEqual(opened, [], 'nothing is open before a comparison was shown');
  await ask(panel, CompareRunsRequest.with({ folder: root, request }, 1));
  open('b', 'after', 'same');
  open('a', 'before', 'same');
  open('a', 'before', 'other');
  open('a', 'after', 'same');
  panel.webview.receive({
    method: OpenCompareEpisodeCommand.method,
    params: { folder: root, side: 'c', run: 'x', episode: 'same' },
  });
  await settle();
  assert.deepEqual(opened, [
    [root, rowIds.after, 'loo'],
    [root, rowIds.before, 'loo'],
  ]);
  assert.notEqual(rowIds.after, rowIds.before);
  owner.dispose();
});

test('ComparePanel: a restored panel comes back on the folder its webview saved; a folder without an index says so', () => {
  const owner = comparePanel([]);
  const panel = vscode.window.createWebviewPanel(ComparePanel.viewType, 'restored', vscode.ViewColumn.Active, {});
  owner.restore(panel, { version: 1, folder: root, request });
  const shown = lastPanel();
  shown.webview.receive(CompareReadyCommand.with({ stateVersion: 1, folder: root }));
  assert.equal(posted<CompareShownData>(shown, DidChangeCompareNotification.method)[0]?.folder, root);
  owner.dispose();
  fake.reset();
  const other = comparePanel([]);
  other.show(vscode.Uri.file(tempFolder('credit-lens-no-index-')));
  assert.equal(fake.panels.length, 0, 'no panel without an index');
  assert.match(fake.messages[0]?.text ?? '', /Credit Lens cannot compare runs: .*no Credit Lens index yet/);
  other.dispose();
});
