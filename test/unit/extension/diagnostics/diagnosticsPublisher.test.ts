import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
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
