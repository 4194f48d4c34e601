import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import { CreditLensViews, viewIds } from '../../../../src/extension/tree/creditLensViews';
import type { BrowseIndex } from '../../../../src/extension/tree/treeItems';
import type { BrowseRepository } from '../../../../src/store/browseRepository';
import { fake } from '../../fakes/vscode';
import { demoIndex, teamUri, type DemoIndex } from './demoIndex';

let index: DemoIndex;

before(async () => {
  index = await demoIndex();
});

after(() => {
  index.store.close();
});

beforeEach(() => {
  fake.reset();
});

test('registers both tree views and publishes the index as diagnostics on refresh', () => {
  const state: { current?: BrowseIndex } = {};
  const views = new CreditLensViews({ index: () => state.current });
  assert.deepEqual(
    fake.treeViews.map((v) => [
      v.viewId,
      v.options.treeDataProvider === views.runs || v.options.treeDataProvider === views.flags,
    ]),
    [
      [viewIds.runs, true],
      [viewIds.flags, true],
    ],
  );
  let changes = 0;
  views.runs.onDidChangeTreeData(() => changes++);
  views.flags.onDidChangeTreeData(() => changes++);
  views.refresh();
  assert.equal(changes, 2);
  assert.equal(fake.diagnosticCollections[0]?.entries.size, 0);
  const folder = vscode.Uri.file(index.root);
  state.current = { folder, repository: index.browse };
  views.refresh();
  const published = [...(fake.diagnosticCollections[0]?.entries.values() ?? [])].map((e) => [
    e.uri.fsPath.slice(index.root.length + 1),
    e.diagnostics.map((d) => [d.range.start.line, d.code]),
  ]);
  assert.deepEqual(published, [
    [teamUri(2), [[0, 'free-rider']]],
    [teamUri(1), [[5, 'silent']]],
    ['routed-experts/rollouts/step_0002.jsonl', [[6, 'parse-error']]],
  ]);
  views.dispose();
  assert.ok(fake.treeViews.every((v) => v.disposed));
  assert.equal(fake.diagnosticCollections[0]?.disposed, true);
});

test('a failing read keeps the previous diagnostics and logs a warning', () => {
  const warnings: string[] = [];
  const failing = {
    runs: () => {
      throw new Error('locked');
    },
  } as unknown as BrowseRepository;
  const views = new CreditLensViews({
    index: () => ({ folder: vscode.Uri.file('/runs/r'), repository: failing }),
    log: { warn: (text: string) => warnings.push(text) },
  });
  views.refresh();
  assert.deepEqual(warnings, ['Credit Lens diagnostics not updated: locked']);
  views.dispose();
});
