import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as vscode from 'vscode';
import { FlagsTreeProvider, type FlagsNode } from '../../../../src/extension/tree/flagsTreeProvider';
import { noIndexMessage } from '../../../../src/extension/tree/treeItems';
import { demoIndex, teamUri, type DemoIndex } from './demoIndex';

let index: DemoIndex;
let folder: vscode.Uri;

before(async () => {
  index = await demoIndex();
  folder = vscode.Uri.file(index.root);
});

after(() => {
  index.store.close();
});

function provider(maxChildren?: number): FlagsTreeProvider {
  return new FlagsTreeProvider({
    index: () => ({ folder, repository: index.browse }),
    ...(maxChildren === undefined ? {} : { maxChildren }),
  });
}

function items(tree: FlagsTreeProvider, node?: FlagsNode): vscode.TreeItem[] {
  return tree.getChildren(node).map((c) => tree.getTreeItem(c));
}

test('runs list their flag count; a run without flags does not expand', () => {
  const runs = items(provider());
  assert.deepEqual(
    runs.map((r) => [r.label, r.description, r.contextValue, r.collapsibleState]),
    [
      ['planner-solver-verifier', '2 flags · ⚑ 2', 'creditLens.run', vscode.TreeItemCollapsibleState.Expanded],
      ['routed-experts', 'no flags', 'creditLens.run', vscode.TreeItemCollapsibleState.None],
    ],
  );
});

test('flags show kind, agent, steps and headline evidence, and open their trace line', () => {
  const tree = provider();
  const [team] = tree.getChildren();
  const flags = items(tree, team);
  assert.deepEqual(
    flags.map((f) => [f.label, f.description, f.contextValue]),
    [
      ['free-rider · verifier', 'steps 2–3 · mean credit 0.001, team reward 0.8', 'creditLens.flag'],
      ['silent · verifier', 'episode s1-g1-r2 · silent in 1 episode', 'creditLens.flag'],
    ],
  );
  const [uri, options] = flags[1]?.command?.arguments ?? [];
  assert.equal(flags[1]?.command?.command, 'vscode.open');
  assert.equal((uri as vscode.Uri).fsPath, vscode.Uri.joinPath(folder, teamUri(1)).fsPath);
  assert.equal((options as { selection: vscode.Range }).selection.start.line, 5);
  assert.match(
    (flags[0]?.tooltip as vscode.MarkdownString).value,
    /free\\-rider: verifier is idle while sharing a reward the team earns/,
  );
});

test('evidence rows are listed in words under their flag (no internal score) with escaped tooltips', () => {
  const tree = provider();
  const [team] = tree.getChildren();
  const [freeRider, silent] = tree.getChildren(team);
  assert.deepEqual(
    items(tree, freeRider).map((e) => [e.label, e.description, e.contextValue]),
    [
      ['mean credit', '0.001', 'creditLens.evidence'],
      ['team reward', '0.8', 'creditLens.evidence'],
    ],
  );
  const note = items(tree, silent).find((e) => e.label === 'note');
  assert.equal(note?.description, '<b>*x*</b>');
  assert.equal((note?.tooltip as vscode.MarkdownString).value, 'note\n\nvalue: \\<b\\>\\*x\\*\\</b\\>');
});

test('windows expand to one row per window of steps; long levels are capped', () => {
  index.store.db
    .prepare(
      "INSERT INTO flag (run_id, scope_kind, scope_id, kind, evidence_json, computed_at) VALUES (?, 'run', '', 'dominant', ?, 'now')",
    )
    .run(
      index.routedRunId,
      JSON.stringify({
        windows: [
          { from: 1, to: 1 },
          { from: 3, to: 4 },
          { from: 5, to: 6 },
        ],
      }),
    );
  try {
    const tree = provider(2);
    const routed = tree.getChildren()[1];
    const [dominant] = tree.getChildren(routed);
    assert.equal(tree.getTreeItem(dominant as FlagsNode).description, 'the whole run');
    assert.equal(tree.getTreeItem(dominant as FlagsNode).command, undefined);
    const [windows] = tree.getChildren(dominant);
    assert.equal(tree.getTreeItem(windows as FlagsNode).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.deepEqual(
      items(tree, windows).map((w) => [w.label, w.description]),
      [
        ['step 1', ''],
        ['steps 3–4', ''],
        ['… 1 more row', undefined],
      ],
    );
  } finally {
    index.store.db.prepare('DELETE FROM flag WHERE run_id = ?').run(index.routedRunId);
  }
});

test('without an index the view shows the placeholder', () => {
  const tree = new FlagsTreeProvider({ index: () => undefined });
  assert.deepEqual(
    items(tree).map((i) => [i.label, i.command?.command]),
    [[noIndexMessage, 'creditLens.indexRunFolder']],
  );
});

test('an index found but not open: the view says why', () => {
  const tree = new FlagsTreeProvider({
    index: () => undefined,
    unopened: () => 'Cannot open the Credit Lens index: x',
  });
  assert.deepEqual(
    items(tree).map((i) => [i.label, i.command?.command]),
    [['Cannot open the Credit Lens index: x', 'creditLens.indexRunFolder']],
  );
});

test('refresh() fires onDidChangeTreeData', () => {
  const tree = provider();
  let fired = 0;
  tree.onDidChangeTreeData(() => fired++);
  tree.refresh();
  assert.equal(fired, 1);
  tree.dispose();
});
