import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import type { Episode } from '../../../src/core/episode';
import { runIndexJob } from '../../../src/engine/indexJob';
import { DashboardPanel } from '../../../src/extension/panels/dashboardPanel';
import {
  DashboardReadyCommand,
  DidChangeRunsNotification,
  type DashboardRunsData,
} from '../../../src/protocol/dashboardPanel';
import { GetRunInfluenceRequest, type InfluenceGraphView } from '../../../src/protocol/influence';
import { openDatabase } from '../../../src/store/database';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake } from '../fakes/vscode';
import { ask, config, lastPanel, log, posted } from './panelTestKit';

// The dashboard keeps one InfluenceService with its open index: a step range's aggregate survives a
// refresh that only appended episodes (it reads just those) and is dropped by any other change.

beforeEach(() => {
  fake.reset();
});

/** The planner's removal logged: v(N∖{planner}) = `without`, so its edge to the outcome is 1 − without. */
const removal = (id: string, step: number, without: number): Episode =>
  episode(id, {
    step,
    counterfactuals: [{ intervention: 'remove', agents: ['planner'], reward: without, replayed: true }],
  });

async function plannerEffect(panel: ReturnType<typeof lastPanel>, folder: string, runId: number, id: number) {
  const answer = await ask<InfluenceGraphView>(
    panel,
    GetRunInfluenceRequest.with({ folder, runId, stepFrom: null, stepTo: null }, id),
  );
  assert.ok(answer.ok, answer.error);
  const graph = answer.value;
  const edge = graph?.edges.find((e) => e.from === 'planner' && e.to === null && e.kind === 'counterfactual');
  return { episodes: graph?.episodes, value: edge?.value };
}

test('DashboardPanel: the influence aggregate is kept across an append and dropped by any other change', async () => {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(removal('e1', 1, 0.5), removal('e2', 2, 0.5)));
  await runIndexJob({ root, search: false });
  const owner = new DashboardPanel({
    extensionUri: vscode.Uri.file('/ext'),
    log: log(),
    config: () => config,
    openEpisode: () => undefined,
  });
  owner.show(vscode.Uri.file(root));
  const panel = lastPanel();
  panel.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  const runId = posted<DashboardRunsData>(panel, DidChangeRunsNotification.method)[0]!.runs[0]!.runId;
  assert.deepEqual(await plannerEffect(panel, root, runId, 1), { episodes: 2, value: 0.5 });

  // A value of an episode already read changes behind the panel's back (same rows, same places),
  // then a pass appends e3: the kept aggregate reads only e3, so e1 keeps the value it was read with.
  const writer = openDatabase(join(root, '.credit-lens', 'index.sqlite'));
  writer.prepare("UPDATE counterfactual SET value = 0 WHERE source = 'logged'").run();
  writer.close();
  appendFileSync(join(root, 'a.jsonl'), jsonl(removal('e3', 3, 0)));
  await runIndexJob({ root, search: false });
  owner.refresh(vscode.Uri.file(root), 'appended');
  assert.deepEqual(await plannerEffect(panel, root, runId, 2), { episodes: 3, value: (0.5 + 0.5 + 1) / 3 });

  // Any other change reads the range again.
  owner.refresh(vscode.Uri.file(root), 'changed');
  assert.deepEqual(await plannerEffect(panel, root, runId, 3), { episodes: 3, value: 1 });
  const other = await ask(
    panel,
    GetRunInfluenceRequest.with({ folder: '/not/shown', runId, stepFrom: null, stepTo: null }, 4),
  );
  assert.equal(other.ok, false);
  owner.dispose();
});
