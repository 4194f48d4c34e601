import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { writeDemoRun } from '../../../../src/demo/writeDemoRun';
import { formatTraceCredit } from '../../../../src/engine/report/formatTraceCredit';
import { traceCreditTable, type TraceCreditOptions } from '../../../../src/engine/traceCredit/traceCreditJob';
import { traceCreditTableCommand } from '../../../../src/extension/commands/traceCreditTableCommand';
import { ReportDocuments, reportScheme } from '../../../../src/extension/reportDocuments';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';
import { fake, Uri as FakeUri } from '../../fakes/vscode';

// "Credit Lens: Credit Table from the Trace Files": the engine of `credit-lens table`, in the
// bundled workers (dist/, built by `npm test` first), on folders with no index; the report is what
// the CLI prints, shown read-only.
const workerScript = resolve('dist/indexWorker.js');
let demo = '';

before(() => {
  assert.ok(
    existsSync(resolve('dist/traceCreditWorker.js')),
    'dist/traceCreditWorker.js missing: run `node esbuild.mjs`',
  );
  demo = tempFolder();
  writeDemoRun(demo, { episodes: 320 });
});

beforeEach(() => fake.reset());

/** Answers the method pick with the item whose label is `label`. */
function pickMethod(label: string): void {
  fake.answerQuickPick = (items) => (items as { label: string }[]).find((item) => item.label === label);
}

function setUp(runTable?: (options: TraceCreditOptions) => ReturnType<typeof traceCreditTable>) {
  const reports = new ReportDocuments();
  const registration = reports.register();
  const log = vscode.window.createOutputChannel('Credit Lens', { log: true });
  const command = traceCreditTableCommand({
    log,
    workerScript,
    chooseFolder: (argument) => Promise.resolve(argument as vscode.Uri),
    showReport: (title, lines) => reports.show(title, lines),
    ...(runTable ? { runTable } : {}),
  });
  /** The text of the one report shown, as VS Code reads it from the provider. */
  const shownText = (): string => {
    assert.equal(fake.shownDocuments.length, 1, 'one report is shown');
    const uri = fake.shownDocuments[0]!.uri;
    assert.equal(uri.scheme, reportScheme);
    return fake.contentProviders.get(reportScheme)!.provideTextDocumentContent(uri);
  };
  return { command, shownText, registration };
}

test('on a folder with no index: the LOO table from the trace files, as the CLI prints it, and no index written', async () => {
  const { command, shownText, registration } = setUp();
  pickMethod('LOO');
  await command(vscode.Uri.file(demo));
  const expected = await traceCreditTable({
    root: demo,
    method: 'loo',
    split: 'train',
    steps: [-Infinity, Infinity],
    parseWorkerScript: resolve('dist/traceCreditWorker.js'),
  });
  const text = shownText();
  // The pass's own line (time read, bytes) differs run to run; every agent and step row must not.
  const stable = (lines: readonly string[]): string[] => lines.filter((l) => !l.trimStart().startsWith('values:'));
  assert.deepEqual(stable(text.trimEnd().split('\n')), stable(formatTraceCredit(demo, 'loo', expected)));
  assert.match(text, /verifier/);
  assert.match(text, /no index written/);
  assert.equal(existsSync(join(demo, '.credit-lens')), false, 'nothing is stored');
  const session = fake.progress[0];
  assert.equal(session?.options.cancellable, true);
  assert.ok(
    session?.reports.some((r) => /of \d+ files read/.test(r.message ?? '')),
    'the progress says how many files are read',
  );
  assert.equal(fake.messages.filter((m) => m.level !== 'info').length, 0);
  registration.dispose();
  assert.equal(fake.contentProviders.has(reportScheme), false, 'the provider goes with the extension');
});

test('the configured default method is offered first when the traces can answer it, else LOO', async () => {
  const { command, registration } = setUp();
  fake.settings.set('creditLens.credit.defaultMethod', { globalValue: 'shapley' });
  fake.answerQuickPick = () => undefined;
  await command(vscode.Uri.file(demo));
  assert.deepEqual(
    (fake.quickPicks[0]?.items as { description: string }[]).map((i) => i.description),
    ['shapley', 'loo', 'shared'],
  );
  fake.reset();
  fake.settings.set('creditLens.credit.defaultMethod', { globalValue: 'routing' });
  fake.answerQuickPick = () => undefined;
  await command(vscode.Uri.file(demo));
  assert.equal((fake.quickPicks[0]?.items[0] as { description: string }).description, 'loo');
  assert.equal(fake.progress.length, 0, 'a dismissed pick reads nothing');
  registration.dispose();
});

test('traces without logged counterfactuals: the report says the values are missing and what would answer, with a warning', async () => {
  const root = tempFolder();
  mkdirSync(join(root, 'rollouts'));
  writeFileSync(join(root, 'rollouts', 'a.jsonl'), jsonl(episode('e1', { step: 1 }), episode('e2', { step: 2 })));
  const { command, shownText, registration } = setUp();
  pickMethod('LOO');
  await command(vscode.Uri.file(root));
  const text = shownText();
  assert.match(text, /0 computed/);
  assert.match(text, /to answer it:/, 'the remedy is in the report');
  const warning = fake.messages.find((m) => m.level === 'warning');
  assert.match(warning?.text ?? '', /no episode of .* logs the values LOO needs/);
  registration.dispose();
});

test('cancelled from the notification: nothing is shown but a message', async () => {
  const { command, registration } = setUp((options) => {
    fake.progress.at(-1)?.cancel();
    return traceCreditTable(options);
  });
  pickMethod('LOO');
  await command(vscode.Uri.file(demo));
  assert.equal(fake.shownDocuments.length, 0);
  assert.match(fake.messages.at(-1)?.text ?? '', /cancelled; nothing was stored/);
  registration.dispose();
});

test('a folder that cannot be read: an error naming it, no report', async () => {
  const { command, registration } = setUp();
  pickMethod('LOO');
  const missing = join(tempFolder(), 'gone');
  await command(vscode.Uri.file(missing));
  assert.equal(fake.shownDocuments.length, 0);
  const error = fake.messages.find((m) => m.level === 'error');
  assert.ok(error?.text.includes('gone'), error?.text);
  registration.dispose();
});

test('each report is its own read-only document; a document no longer held says how to get it again', async () => {
  const reports = new ReportDocuments();
  const registration = reports.register();
  const a = await reports.show('run/a — LOO', ['first']);
  const b = await reports.show('run/a — LOO', ['second']);
  assert.notEqual(a.toString(), b.toString());
  assert.equal(reports.provideTextDocumentContent(a), 'first\n');
  assert.equal(reports.provideTextDocumentContent(b), 'second\n');
  assert.ok(!(a as unknown as FakeUri).path.slice(1).includes('/'), 'the title is one path segment');
  const provider = fake.contentProviders.get(reportScheme)!;
  assert.match(
    provider.provideTextDocumentContent(FakeUri.from({ scheme: reportScheme, path: '/x.txt' })),
    /run its command again/,
  );
  registration.dispose();
});

test('on a run of the Runs view: only that run is read, as `table --run` reads it', async () => {
  const reports = new ReportDocuments();
  const registration = reports.register();
  const asked: TraceCreditOptions[] = [];
  const command = traceCreditTableCommand({
    log: vscode.window.createOutputChannel('Credit Lens', { log: true }),
    workerScript,
    chooseFolder: (argument) => Promise.resolve((argument as { folder: vscode.Uri }).folder),
    showReport: (title, lines) => reports.show(title, lines),
    runTable: (options) => {
      asked.push(options);
      return traceCreditTable(options);
    },
  });
  pickMethod('LOO');
  const run = { name: 'planner-solver-verifier', root: 'planner-solver-verifier' };
  await command({ kind: 'run', folder: vscode.Uri.file(demo), run });
  assert.equal(asked[0]?.run, 'planner-solver-verifier');
  const uri = fake.shownDocuments[0]!.uri;
  const text = fake.contentProviders.get(reportScheme)!.provideTextDocumentContent(uri);
  const alone = await traceCreditTable({
    root: demo,
    method: 'loo',
    split: 'train',
    steps: [-Infinity, Infinity],
    run: 'planner-solver-verifier',
  });
  const stable = (lines: readonly string[]): string[] => lines.filter((l) => !l.trimStart().startsWith('values:'));
  assert.deepEqual(stable(text.trimEnd().split('\n')), stable(formatTraceCredit(demo, 'loo', alone)));
  assert.match(text, /^\s+verifier\s+\d+\s+0\.\d+/m);
  assert.doesNotMatch(text, /routed-experts|planner-solver-verifier-credit/, 'no other run of the folder is read');
  assert.match(fake.progress[0]?.options.title ?? '', /› planner-solver-verifier$/);
  assert.match(fake.shownDocuments[0]!.uri.path + uri.query, /planner-solver-verifier/);
  registration.dispose();
});
