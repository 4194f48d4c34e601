import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vscode from 'vscode';
import type { IndexJobResult } from '../../../src/engine/indexJob';
import type { UnopenedIndex } from '../../../src/extension/activeIndex';
import { IndexUpgrades } from '../../../src/extension/indexUpgrades';

const folder = vscode.Uri.file('/runs/a');
const older: UnopenedIndex = { folder, reason: 'index schema version 11 is older than …', upgrade: true };
const log = { info: () => undefined, warn: () => undefined };
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Upgrades whose passes resolve or reject when the test says. */
function harness() {
  const passes: { resolve: (r: IndexJobResult) => void; reject: (e: Error) => void }[] = [];
  const events: string[] = [];
  const upgrades = new IndexUpgrades({
    log,
    pass: () => new Promise<IndexJobResult>((resolve, reject) => passes.push({ resolve, reject })),
    onUpgraded: (f) => events.push(`upgraded ${f.fsPath}`),
    onFailed: (f) => events.push(`failed ${f.fsPath}`),
  });
  return { upgrades, passes, events };
}

test('an older index gets one pass however often the views ask, and the views say it is being upgraded', async () => {
  const { upgrades, passes, events } = harness();
  upgrades.start(older);
  upgrades.start(older);
  assert.equal(passes.length, 1);
  assert.equal(upgrades.describe(older), 'Upgrading the index an older Credit Lens wrote (one indexing pass)…');
  passes[0]?.resolve({} as IndexJobResult);
  await settle();
  assert.deepEqual(events, ['upgraded /runs/a']);
  upgrades.start(older); // shown again and still older (another writer reverted it): tries again
  assert.equal(passes.length, 2);
});

test('a failed upgrade is said, not retried until the folder is indexed again; a newer or unreadable index is never passed', async () => {
  const { upgrades, passes, events } = harness();
  upgrades.start(older);
  passes[0]?.reject(new Error('disk full'));
  await settle();
  assert.deepEqual(events, ['failed /runs/a']);
  assert.equal(
    upgrades.describe(older),
    'Could not upgrade the index an older Credit Lens wrote: disk full. Click to index the run folder.',
  );
  upgrades.start(older);
  assert.equal(passes.length, 1, 'not retried on every refresh');
  upgrades.forget(folder);
  upgrades.start(older);
  assert.equal(passes.length, 2);

  const newer: UnopenedIndex = { folder, reason: 'index schema version 99 is newer than …', upgrade: false };
  upgrades.start(newer);
  upgrades.start(undefined);
  assert.equal(passes.length, 2);
  assert.equal(upgrades.describe(newer), 'Cannot open the Credit Lens index: index schema version 99 is newer than …');
  assert.equal(upgrades.describe(undefined), undefined);
});
