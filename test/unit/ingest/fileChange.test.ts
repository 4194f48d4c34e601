import assert from 'node:assert/strict';
import { appendFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { StoredFileState } from '../../../src/core/indexing';
import { headHash, planFile } from '../../../src/ingest/fileChange';
import { tempFolder } from '../../builders/episodeBuilder';

function indexed(path: string): StoredFileState {
  const stat = statSync(path);
  return {
    sourceId: 1,
    runId: 1,
    format: 'credit_lens_jsonl',
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    indexedOffset: stat.size,
    lines: 2,
    headHash: headHash(path, stat.size),
  };
}

function setup(): { path: string; stored: StoredFileState } {
  const path = join(tempFolder(), 'f.jsonl');
  writeFileSync(path, '{"a":1}\n{"b":2}\n');
  return { path, stored: indexed(path) };
}

function plan(path: string, stored: StoredFileState | undefined) {
  const stat = statSync(path);
  return planFile(path, stored, stat.size, stat.mtimeMs);
}

test('planFile() reads a file it has never seen in full', () => {
  const { path } = setup();
  assert.deepEqual(plan(path, undefined), { kind: 'reindex', reason: 'new file' });
});

test('planFile() skips a file whose size and mtime are unchanged', () => {
  const { path, stored } = setup();
  assert.deepEqual(plan(path, stored), { kind: 'unchanged' });
});

test('planFile() appends from the stored offset when lines were added', () => {
  const { path, stored } = setup();
  appendFileSync(path, '{"c":3}\n');
  assert.deepEqual(plan(path, stored), { kind: 'append', fromOffset: 16, fromLine: 2 });
});

test('planFile() re-reads a truncated file', () => {
  const { path, stored } = setup();
  writeFileSync(path, '{"a":1}\n');
  assert.equal(plan(path, stored).kind, 'reindex');
});

test('planFile() re-reads a rewritten file whose head changed', () => {
  const { path, stored } = setup();
  writeFileSync(path, '{"z":9}\n{"b":2}\n{"c":3}\n');
  const result = plan(path, stored);
  assert.equal(result.kind, 'reindex');
  assert.match(result.kind === 'reindex' ? result.reason : '', /rewritten/);
});

test('planFile() re-reads a same-size file edited in place', () => {
  const { path, stored } = setup();
  writeFileSync(path, '{"a":1}\n{"b":3}\n');
  const later = new Date(Date.now() + 5000);
  utimesSync(path, later, later);
  assert.equal(plan(path, stored).kind, 'reindex');
});

test('planFile() re-reads when the stored offset no longer ends a line', () => {
  const { path } = setup();
  const stored = { ...indexed(path), indexedOffset: 5, headHash: headHash(path, 5) };
  appendFileSync(path, '{"c":3}\n');
  assert.deepEqual(plan(path, stored), { kind: 'reindex', reason: 'line boundary moved' });
});
