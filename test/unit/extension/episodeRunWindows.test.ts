// The Episode view lists only the flags about its episode; the run's step windows over its step are
// one count, and opening them shows the Run Dashboard on the run, filtered to the windows' steps.
import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { runIndexJob } from '../../../src/engine/indexJob';
import type { StepSpan } from '../../../src/extension/commands/openViewCommands';
import { EpisodePanel } from '../../../src/extension/panels/episodePanel';
import {
  DidChangeEpisodeNotification,
  EpisodeReadyCommand,
  OpenRunWindowsCommand,
  type EpisodeViewData,
} from '../../../src/protocol/episodePanel';
import { AuditRepository } from '../../../src/store/auditRepository';
import { openDatabase } from '../../../src/store/database';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fake } from '../fakes/vscode';
import { episodeIds, lastPanel, panelHost, posted, settle } from './panelTestKit';

let root: string;
let ids: Record<string, number>;
let runId: number;

before(async () => {
  root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('e12', { step: 12 }), episode('e30', { step: 30 })));
  const { index } = await runIndexJob({ root });
  ids = episodeIds(root, ['e12', 'e30']);
  const db = openDatabase(index.path);
  runId = db.prepare<{ id: number }>('SELECT run_id AS id FROM run').get()?.id ?? -1;
  new AuditRepository(db).replaceFlags(runId, [
    { kind: 'decoupling', agent: 'solver', scope: 'step', steps: [10, 14], evidence: {} },
    { kind: 'idle', agent: 'planner', scope: 'step', steps: [0, 12], evidence: { meanCredit: 0 } },
    { kind: 'silent', agent: 'planner', scope: 'episode', episode: 'e12', evidence: { silentEpisodes: 1 } },
  ]);
  db.close();
});

beforeEach(() => {
  fake.reset();
});

test("the Episode view lists its own flags, counts the run's windows over its step and opens them in the dashboard", async () => {
  const opened: [string, number | undefined, StepSpan | undefined][] = [];
  const panel = new EpisodePanel({
    ...panelHost(),
    openDashboard: (folder, run, steps) => opened.push([folder.fsPath, run, steps]),
  });
  panel.show(vscode.Uri.file(root), ids['e12']!);
  const webview = lastPanel().webview;
  webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  const [data] = posted<EpisodeViewData>(lastPanel(), DidChangeEpisodeNotification.method);
  assert.deepEqual(
    data?.flags.map((f) => [f.kind, f.scope]),
    [['silent', 'episode']],
    'the windows are not its flags',
  );
  assert.deepEqual(data?.runWindows, { runId, count: 2, step: 12, steps: [0, 14] });
  webview.receive(OpenRunWindowsCommand.with({ ref: { folder: root, episodeId: ids['e12']! } }));
  // Another episode than the one shown is refused: the webview only names what it was sent.
  webview.receive(OpenRunWindowsCommand.with({ ref: { folder: root, episodeId: ids['e30']! } }));
  await settle();
  assert.deepEqual(opened, [[root, runId, [0, 14]]]);
  // Step 30 is under no window: no line, and the command opens nothing.
  panel.show(vscode.Uri.file(root), ids['e30']!);
  const latest = posted<EpisodeViewData>(lastPanel(), DidChangeEpisodeNotification.method).at(-1);
  assert.deepEqual([latest?.externalId, latest?.flags, latest?.runWindows], ['e30', [], null]);
  webview.receive(OpenRunWindowsCommand.with({ ref: { folder: root, episodeId: ids['e30']! } }));
  await settle();
  assert.equal(opened.length, 1);
  panel.dispose();
});
