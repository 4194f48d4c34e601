import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { openDashboardCommand, stepsArgument } from '../../../../src/extension/commands/openViewCommands';
import { DiagnosticsPublisher } from '../../../../src/extension/diagnostics/diagnosticsPublisher';
import type { SeverityByKind } from '../../../../src/extension/diagnostics/flagDiagnostics';
import type { BrowseFlag } from '../../../../src/store/browseRepository';
import { fake, type FakeDiagnosticCollection } from '../../fakes/vscode';

const folder = vscode.Uri.file('/runs/demo');
const other = vscode.Uri.file('/runs/other');

function flag(kind: string, uri: string, line: number): BrowseFlag {
  return {
    flagId: 1,
    kind,
    agent: 'verifier',
    scope: 'run',
    scopeId: '',
    steps: null,
    score: null,
    evidence: {},
    location: { uri, line },
  };
}

function collection(): FakeDiagnosticCollection {
  const [only] = fake.diagnosticCollections;
  assert.ok(only);
  return only;
}

/** `path → [line, severity, code]` of everything in the collection. */
function contents(): Record<string, [number, number, unknown][]> {
  const out: Record<string, [number, number, unknown][]> = {};
  collection().forEach((uri, list) => (out[uri.fsPath] = list.map((d) => [d.range.start.line, d.severity, d.code])));
  return out;
}

beforeEach(() => {
  fake.reset();
});

test('publish() sets diagnostics on the trace files, 0-based lines, with source and code', () => {
  const publisher = new DiagnosticsPublisher();
  assert.equal(collection().name, 'creditLens');
  publisher.publish(
    folder,
    [flag('idle', 'a/r.jsonl', 3), flag('silent', 'a/r.jsonl', 1)],
    [{ uri: 'b/r.jsonl', line: 9, reason: 'invalid JSON' }],
  );
  assert.deepEqual(contents(), {
    '/runs/demo/a/r.jsonl': [
      [2, vscode.DiagnosticSeverity.Warning, 'idle'],
      [0, vscode.DiagnosticSeverity.Information, 'silent'],
    ],
    '/runs/demo/b/r.jsonl': [[8, vscode.DiagnosticSeverity.Error, 'parse-error']],
  });
  const [first] = collection().entries.get(vscode.Uri.joinPath(folder, 'a/r.jsonl').toString())?.diagnostics ?? [];
  assert.equal(first?.source, 'Credit Lens');
  assert.match(first?.message ?? '', /^idle: verifier/);
});

test("publish() replaces the folder's previous diagnostics and leaves other folders alone", () => {
  const publisher = new DiagnosticsPublisher();
  publisher.publish(folder, [flag('idle', 'a/r.jsonl', 3)], [{ uri: 'b/r.jsonl', line: 9, reason: 'bad' }]);
  publisher.publish(other, [flag('idle', 'x.jsonl', 1)], []);
  publisher.publish(folder, [flag('dominant', 'c/r.jsonl', 5)], []);
  assert.deepEqual(contents(), {
    '/runs/other/x.jsonl': [[0, vscode.DiagnosticSeverity.Warning, 'idle']],
    '/runs/demo/c/r.jsonl': [[4, vscode.DiagnosticSeverity.Warning, 'dominant']],
  });
  publisher.publish(folder, [], []);
  publisher.clear(other);
  assert.deepEqual(contents(), {});
});

test('severities are read on each publish', () => {
  let severities: SeverityByKind = {};
  const publisher = new DiagnosticsPublisher(() => severities);
  publisher.publish(folder, [flag('idle', 'a.jsonl', 1)], []);
  severities = { idle: 'error' };
  publisher.publish(folder, [flag('idle', 'a.jsonl', 1)], []);
  assert.deepEqual(contents(), { '/runs/demo/a.jsonl': [[0, vscode.DiagnosticSeverity.Error, 'idle']] });
});

test('dispose() disposes the collection', () => {
  const publisher = new DiagnosticsPublisher();
  publisher.publish(folder, [flag('idle', 'a.jsonl', 1)], []);
  publisher.dispose();
  assert.equal(collection().disposed, true);
  assert.equal(collection().entries.size, 0);
});

/** The quick fixes the registered provider offers for the diagnostics of `file`. */
function quickFixes(file: vscode.Uri): vscode.CodeAction[] {
  const [registered] = fake.codeActionProviders;
  assert.ok(registered);
  const diagnostics = collection().entries.get(file.toString())?.diagnostics ?? [];
  const at = new vscode.Range(new vscode.Position(0, 0), new vscode.Position(0, 0));
  return registered.provider.provideCodeActions({ uri: file }, at, { diagnostics }) as vscode.CodeAction[];
}

test('a flag over several episodes links each diagnostic to the other flagged episodes', () => {
  const publisher = new DiagnosticsPublisher();
  const silent: BrowseFlag = {
    ...flag('silent', 'a/r.jsonl', 2),
    scope: 'episode',
    scopeId: 'e2',
    locations: [
      { uri: 'a/r.jsonl', line: 2, episode: 'e2' },
      { uri: 'a/r.jsonl', line: 7, episode: 'e7' },
      { uri: 'b/r.jsonl', line: 1 },
    ],
  };
  publisher.publish(folder, [silent], []);
  const [first] = collection().entries.get(vscode.Uri.joinPath(folder, 'a/r.jsonl').toString())?.diagnostics ?? [];
  assert.deepEqual(
    first?.relatedInformation?.map((r) => [r.location.uri.fsPath, r.location.range.start.line, r.message]),
    [
      ['/runs/demo/a/r.jsonl', 6, 'flagged episode e7'],
      ['/runs/demo/b/r.jsonl', 0, 'another flagged episode'],
    ],
  );
  // A flag with one trace line has nothing to link to.
  publisher.publish(folder, [flag('idle', 'a/r.jsonl', 3)], []);
  const [only] = collection().entries.get(vscode.Uri.joinPath(folder, 'a/r.jsonl').toString())?.diagnostics ?? [];
  assert.equal(only?.relatedInformation, undefined);
});

test('a flag of a run offers "Open in Dashboard (steps a–b)" as a quick fix on its line', () => {
  const publisher = new DiagnosticsPublisher();
  const window: BrowseFlag = { ...flag('free-rider', 'a/r.jsonl', 1), runId: 4, scope: 'step', steps: [25, 40] };
  const whole: BrowseFlag = { ...flag('dominant', 'a/r.jsonl', 5), runId: 4 };
  publisher.publish(
    folder,
    [window, whole, flag('idle', 'a/r.jsonl', 9)],
    [{ uri: 'a/r.jsonl', line: 3, reason: 'x' }],
  );
  const fixes = quickFixes(vscode.Uri.joinPath(folder, 'a/r.jsonl'));
  assert.deepEqual(
    fixes.map((f) => [f.title, f.kind?.value, f.command?.command, f.diagnostics?.[0]?.code]),
    [
      ['Open in Dashboard (steps 25–40)', 'quickfix', 'creditLens.openDashboard', 'free-rider'],
      ['Open in Dashboard', 'quickfix', 'creditLens.openDashboard', 'dominant'],
    ],
  );
  const [argument] = fixes[0]?.command?.arguments ?? [];
  assert.deepEqual(argument, { folder, run: { runId: 4 }, steps: [25, 40] });
  publisher.clear(folder);
  publisher.dispose();
});

test('the quick fix opens the dashboard on its run and steps; a whole-run flag on its run alone', async () => {
  const publisher = new DiagnosticsPublisher();
  const window: BrowseFlag = { ...flag('free-rider', 'a/r.jsonl', 1), runId: 4, scope: 'step', steps: [25, 40] };
  publisher.publish(folder, [window, { ...flag('dominant', 'a/r.jsonl', 5), runId: 4 }], []);
  const shown: unknown[][] = [];
  const open = openDashboardCommand(
    (...args) => shown.push(args),
    (argument) => Promise.resolve((argument as { folder: vscode.Uri }).folder),
  );
  for (const fix of quickFixes(vscode.Uri.joinPath(folder, 'a/r.jsonl'))) await open(fix.command?.arguments?.[0]);
  assert.deepEqual(shown, [
    [folder, 4, [25, 40]],
    [folder, 4, undefined],
  ]);
  assert.equal(stepsArgument({ folder, steps: [40, 25] }), undefined, 'an empty range is no range');
  assert.equal(stepsArgument({ folder, steps: [1.5, 3] }), undefined);
  assert.equal(stepsArgument({ folder, steps: ['1', 3] }), undefined);
  assert.deepEqual(stepsArgument({ folder, steps: [-3, -3] }), [-3, -3]);
  publisher.clear(folder);
  assert.deepEqual(quickFixes(vscode.Uri.joinPath(folder, 'a/r.jsonl')), []);
  publisher.dispose();
  assert.equal(fake.codeActionProviders.length, 0);
});
