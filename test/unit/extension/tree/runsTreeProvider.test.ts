import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as vscode from 'vscode';
import { RunsTreeProvider, traceTableMessage, type RunsNode } from '../../../../src/extension/tree/runsTreeProvider';
import { noIndexMessage } from '../../../../src/extension/tree/treeItems';
import type { BrowseRepository } from '../../../../src/store/browseRepository';
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

function provider(maxChildren?: number): RunsTreeProvider {
  return new RunsTreeProvider({
    index: () => ({ folder, repository: index.browse }),
    ...(maxChildren === undefined ? {} : { maxChildren }),
  });
}

function items(tree: RunsTreeProvider, node?: RunsNode): vscode.TreeItem[] {
  return tree.getChildren(node).map((child) => tree.getTreeItem(child));
}

/** The child of `node` whose item has this label. */
function child(tree: RunsTreeProvider, node: RunsNode | undefined, label: string): RunsNode {
  const found = tree.getChildren(node).find((c) => tree.getTreeItem(c).label === label);
  assert.ok(found, `no child ${label}`);
  return found;
}

const tooltipOf = (item: vscode.TreeItem): string => (item.tooltip as vscode.MarkdownString).value;

test('runs: one item per run with totals, flag badge and context value', () => {
  const runs = items(provider());
  assert.deepEqual(
    runs.map((r) => [r.label, r.contextValue, r.collapsibleState]),
    [
      ['planner-solver-verifier', 'creditLens.run', vscode.TreeItemCollapsibleState.Collapsed],
      ['routed-experts', 'creditLens.run', vscode.TreeItemCollapsibleState.Collapsed],
    ],
  );
  assert.match(String(runs[0]?.description), /^18 episodes · 3 steps · mean reward [\d.]+ · ⚑ 2$/);
  assert.doesNotMatch(String(runs[1]?.description), /⚑/);
  assert.equal((runs[0]?.iconPath as vscode.ThemeIcon).id, 'warning');
  assert.match(tooltipOf(runs[0] as vscode.TreeItem), /mechanism: pipeline/);
});

test('steps and groups carry counts, mean reward and the flags covering them', () => {
  const tree = provider();
  const run = child(tree, undefined, 'planner-solver-verifier');
  const steps = items(tree, run);
  assert.deepEqual(
    steps.map((s) => [s.label, s.contextValue]),
    [
      ['step 1', 'creditLens.step'],
      ['step 2', 'creditLens.step'],
      ['step 3', 'creditLens.step'],
    ],
  );
  assert.match(String(steps[1]?.description), /^6 episodes · 2 groups · mean reward [\d.]+ · ⚑ 1$/);
  const groups = items(tree, child(tree, run, 'step 1'));
  assert.deepEqual(
    groups.map((g) => [g.label, g.contextValue]),
    [
      ['s1-g0', 'creditLens.group'],
      ['s1-g1', 'creditLens.group'],
    ],
  );
  assert.match(String(groups[0]?.description), /^3 episodes · mean reward [\d.]+$/);
  assert.match(String(groups[1]?.description), /· ⚑ 1$/);
});

test('episodes show reward, agent count and badge, and open the Episode view', () => {
  const tree = provider();
  const step = child(tree, child(tree, undefined, 'planner-solver-verifier'), 'step 1');
  const episodes = items(tree, child(tree, step, 's1-g1'));
  assert.deepEqual(
    episodes.map((e) => [e.label, e.contextValue, e.collapsibleState]),
    [
      ['s1-g1-r0', 'creditLens.episode', vscode.TreeItemCollapsibleState.None],
      ['s1-g1-r1', 'creditLens.episode', vscode.TreeItemCollapsibleState.None],
      ['s1-g1-r2', 'creditLens.episode', vscode.TreeItemCollapsibleState.None],
    ],
  );
  assert.match(String(episodes[2]?.description), /^reward [01] · 3 agents · ⚑ 1$/);
  const command = episodes[2]?.command;
  assert.equal(command?.command, 'creditLens.openEpisodeView');
  const [node] = (command?.arguments ?? []) as {
    folder: vscode.Uri;
    episode: { externalId: string; uri: string; line: number };
  }[];
  assert.equal(node?.folder.fsPath, folder.fsPath);
  assert.equal(node?.episode.externalId, 's1-g1-r2');
  // Reveal Trace Line (context menu) gets the same node: the episode's file and 1-based line.
  assert.deepEqual([node?.episode.uri, node?.episode.line], [teamUri(1), 6]);
});

test('tooltips are escaped text, never raw Markdown', () => {
  const tree = provider();
  const step = child(tree, child(tree, undefined, 'planner-solver-verifier'), 'step 1');
  const episode = items(tree, child(tree, step, 's1-g1'))[0] as vscode.TreeItem;
  const tooltip = episode.tooltip as vscode.MarkdownString;
  assert.ok(tooltip instanceof vscode.MarkdownString);
  assert.notEqual(tooltip.isTrusted, true);
  assert.notEqual(tooltip.supportHtml, true);
  assert.match(tooltip.value, /Episode s1\\-g1\\-r0/);
  assert.match(tooltip.value, /step\\_0001\\.jsonl:4/);
});

test('large levels are split: step ranges for many steps, pages for many groups or episodes', () => {
  const tree = provider(2);
  const run = child(tree, undefined, 'planner-solver-verifier');
  const ranges = items(tree, run);
  assert.deepEqual(
    ranges.map((s) => [s.label, s.contextValue]),
    [
      ['steps 0–1', 'creditLens.stepRange'],
      ['steps 2–3', 'creditLens.stepRange'],
    ],
  );
  assert.match(String(ranges[0]?.description), /^1 step · 6 episodes · mean reward [\d.]+ · ⚑ 1$/);
  assert.match(String(ranges[1]?.description), /^2 steps · 12 episodes · mean reward [\d.]+ · ⚑ 1$/);
  const range = child(tree, run, 'steps 0–1');
  const group = child(tree, child(tree, range, 'step 1'), 's1-g0');
  const pages = tree.getChildren(group);
  assert.deepEqual(
    pages.map((p) => [tree.getTreeItem(p).label, tree.getTreeItem(p).contextValue]),
    [
      ['episodes 1–2', 'creditLens.page'],
      ['episodes 3–3', 'creditLens.page'],
    ],
  );
  assert.deepEqual(
    pages.flatMap((p) => items(tree, p).map((e) => e.label)),
    ['s1-g0-r0', 's1-g0-r1', 's1-g0-r2'],
  );
});

test('without an index the view offers to index, and the credit table that needs no index', () => {
  const tree = new RunsTreeProvider({ index: () => undefined });
  assert.deepEqual(
    items(tree).map((i) => [i.label, i.command?.command]),
    [
      [noIndexMessage, 'creditLens.indexRunFolder'],
      [traceTableMessage, 'creditLens.creditTableFromTraces'],
    ],
  );
});

test('an index found but not open says why instead of "no index yet", and still offers to index', () => {
  const tree = new RunsTreeProvider({ index: () => undefined, unopened: () => 'Upgrading the index…' });
  assert.deepEqual(
    items(tree).map((i) => [i.label, i.command?.command]),
    [
      ['Upgrading the index…', 'creditLens.indexRunFolder'],
      [traceTableMessage, 'creditLens.creditTableFromTraces'],
    ],
  );
});

test('an empty index and a failing read show a message instead of throwing', () => {
  const empty = { runs: () => [] } as unknown as BrowseRepository;
  assert.deepEqual(
    items(new RunsTreeProvider({ index: () => ({ folder, repository: empty }) })).map((i) => i.label),
    ['The index holds no runs yet.'],
  );
  const failing = {
    runs: () => {
      throw new Error('SQLITE_BUSY: database is locked');
    },
  } as unknown as BrowseRepository;
  const [message] = items(new RunsTreeProvider({ index: () => ({ folder, repository: failing }) }));
  assert.match(message?.label as string, /Could not read the Credit Lens index: SQLITE_BUSY/);
});

test('refresh() fires onDidChangeTreeData; dispose() stops it', () => {
  const tree = provider();
  const fired: unknown[] = [];
  tree.onDidChangeTreeData((node) => fired.push(node));
  tree.refresh();
  assert.deepEqual(fired, [undefined]);
  tree.dispose();
  tree.refresh();
  assert.equal(fired.length, 1);
});

test('a listed folder whose index is found but not open says why under its node', () => {
  const older = vscode.Uri.file(`${index.root}-older`);
  const tree = new RunsTreeProvider({
    index: () => ({ folder, repository: index.browse }),
    folders: () => [
      { folder, label: 'demo-run', current: true },
      { folder: older, label: 'older', current: false },
    ],
    indexOf: () => undefined,
    unopened: (f) => (f?.fsPath === older.fsPath ? 'Upgrading the index…' : undefined),
  });
  const [, olderNode] = tree.getChildren();
  assert.deepEqual(
    items(tree, olderNode).map((i) => [i.label, i.command?.command]),
    [['Upgrading the index…', 'creditLens.indexRunFolder']],
  );
});

test('several indexed folders: one node per folder, the current one expanded, each reading its own index with its own ids', () => {
  const other = vscode.Uri.file(`${index.root}-copy`);
  const read: string[] = [];
  const tree = new RunsTreeProvider({
    index: () => ({ folder, repository: index.browse }),
    folders: () => [
      { folder, label: 'demo-run', current: true },
      { folder: other, label: 'copy', current: false },
    ],
    indexOf: (f) => (read.push(f.fsPath), { folder: f, repository: index.browse }),
  });
  const folders = items(tree);
  assert.deepEqual(
    folders.map((f) => [f.label, f.description, f.contextValue, f.collapsibleState]),
    [
      ['demo-run', 'current', 'creditLens.runFolder', vscode.TreeItemCollapsibleState.Expanded],
      ['copy', '', 'creditLens.runFolder', vscode.TreeItemCollapsibleState.Collapsed],
    ],
  );
  const [, copyNode] = tree.getChildren();
  const runsOfCopy = tree.getChildren(copyNode);
  assert.deepEqual(read, [other.fsPath], 'the other folder is read through indexOf; the current one from index()');
  const [shownRun] = tree.getChildren(tree.getChildren()[0]);
  const ids = [tree.getTreeItem(shownRun!).id, tree.getTreeItem(runsOfCopy[0]!).id];
  assert.equal(new Set(ids).size, 2, `run ids must differ across folders: ${ids.join(', ')}`);
  const step = tree.getChildren(runsOfCopy[0])[0];
  assert.equal(step?.kind === 'step' && step.folder.fsPath, other.fsPath, 'nodes below a folder carry it');
});
