import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { auditWorkerScript, runAudit } from '../../../src/engine/audit/auditJob';
import { auditRunsInWorker } from '../../../src/engine/audit/auditRunsInWorker';
import { defaultAuditThresholds } from '../../../src/credit/audit/auditThresholds';
import { IndexStore } from '../../../src/store/indexStore';
import { tempFolder } from '../../builders/episodeBuilder';
import { indexedDemo, indexWorkerScript } from '../../builders/storedCredit';

// An audit whose reading runs in its worker thread (src/engine/audit/auditRunsInWorker.ts) returns
// and stores what the same audit does on the caller's thread; a worker that fails says why.

const indexed = indexedDemo(1280);

/** The flags and audit summaries an audit stored, without the times they were stored at. */
function storedAudit(dbPath: string): unknown {
  const store = IndexStore.open(dbPath);
  try {
    const flags = store.db
      .prepare(
        'SELECT run_id, scope_kind, scope_id, agent_id, kind, score, evidence_json FROM flag ORDER BY run_id, flag_id',
      )
      .all();
    const summaries = store.db
      .prepare('SELECT run_id, method, agents_json, unreachable_json FROM audit_summary ORDER BY run_id')
      .all();
    return { flags, summaries };
  } finally {
    store.close();
  }
}

test('an audit read in its worker returns and stores what it does on the caller’s thread', async () => {
  const onThreadDb = indexed.copyOfIndex();
  const inWorkerDb = indexed.copyOfIndex();
  const root = indexed.root;
  const onThread = await runAudit({ root, dbPath: onThreadDb, workerScript: false });
  const inWorker = await runAudit({ root, dbPath: inWorkerDb, workerScript: indexWorkerScript });
  assert.ok(onThread.runs.length >= 2, 'both demo runs are audited');
  assert.ok(
    onThread.runs.some((r) => r.flags.some((f) => f.kind === 'free-rider')),
    'the demo’s free-rider is flagged (the comparison is not of empty reports)',
  );
  assert.ok(
    onThread.runs.some((r) => r.agents.some((a) => (a.emptyRate ?? 0) > 0)),
    'the text was read both ways',
  );
  assert.deepEqual(inWorker.runs, onThread.runs);
  const stored = storedAudit(onThreadDb) as { flags: unknown[] };
  assert.ok(stored.flags.length > 0);
  assert.deepEqual(storedAudit(inWorkerDb), stored);
});

test('the audit reads on the caller’s thread from source, and in the worker it is given', () => {
  assert.equal(auditWorkerScript({ root: '.' }), undefined, 'no dist/indexWorker.js beside the sources');
  assert.equal(auditWorkerScript({ root: '.', workerScript: false }), undefined);
  assert.equal(auditWorkerScript({ root: '.', workerScript: indexWorkerScript }), indexWorkerScript);
});

test('a worker that cannot read the index rejects with its error, naming the file', async () => {
  const missing = join(tempFolder(), 'no-such-folder', 'index.sqlite');
  await assert.rejects(
    auditRunsInWorker(
      {
        root: indexed.root,
        dbPath: missing,
        method: 'loo',
        split: 'train',
        thresholds: defaultAuditThresholds,
        readText: false,
        credit: [],
      },
      indexWorkerScript,
    ),
    (error: Error) => {
      assert.match(error.message, /no-such-folder/);
      return true;
    },
  );
});
