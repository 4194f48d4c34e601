import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as vscode from 'vscode';
import { RunsTreeProvider, type RunsNode } from '../../../../src/extension/tree/runsTreeProvider';
import { pageSpans, rangeWidth } from '../../../../src/extension/tree/treePaging';
import { indexRunFolder } from '../../../../src/ingest/indexRunFolder';
import { BrowseRepository } from '../../../../src/store/browseRepository';
import { IndexStore } from '../../../../src/store/indexStore';
import type { Episode } from '../../../../src/core/episode';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';

// 12 steps × 3 groups × 5 samples plus 2 episodes without a step, shown with at most 4 children
// per level and 2 steps per range: steps come in ranges of ranges, episodes of a group in pages.
const maxChildren = 4;
let root: string;
let store: IndexStore;
let browse: BrowseRepository;
let folder: vscode.Uri;

function stepEpisodes(step: number, samples: readonly number[], groups = ['g0', 'g1', 'g2']): string {
  return jsonl(
    ...groups.flatMap((group) =>
      samples.map((sample) => episode(`s${step}-${group}-r${sample}`, { step, group, sample, reward: sample % 2 })),
    ),
  );
}

/** An episode that logs neither a step nor a group. */
function withoutStep(id: string): Episode {
  const { step: _step, group: _group, ...rest } = episode(id);
  return rest;
}

before(async () => {
  root = tempFolder('credit-lens-paging-');
  const lines = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((s) => stepEpisodes(s, [0, 1, 2, 3, 4])).join('');
  const unstepped = jsonl(withoutStep('loose-0'), withoutStep('loose-1'));
  writeFileSync(join(root, 'steps.jsonl'), lines + unstepped);
  store = IndexStore.open(':memory:');
  await indexRunFolder(root, store, { search: false });
  browse = new BrowseRepository(store.db);
  folder = vscode.Uri.file(root);
});

after(() => store.close());

function provider(): RunsTreeProvider {
  return new RunsTreeProvider({ index: () => ({ folder, repository: browse }), maxChildren, stepsPerRange: 2 });
}

const label = (tree: RunsTreeProvider, node: RunsNode): string => tree.getTreeItem(node).label as string;

/** Every node below `node`, depth first, with the path of labels to it. */
function walk(tree: RunsTreeProvider, node?: RunsNode, path: string[] = []): { node: RunsNode; path: string[] }[] {
  return tree.getChildren(node).flatMap((child) => {
    const here = [...path, label(tree, child)];
    return [{ node: child, path: here }, ...walk(tree, child, here)];
  });
}

const allEpisodeIds = (): string[] =>
  store.db
    .prepare<{ external_id: string }>('SELECT external_id FROM episode ORDER BY external_id')
    .all()
    .map((r) => r.external_id);

test('pageSpans and rangeWidth: at most max pages of max^k items, aligned step ranges', () => {
  assert.deepEqual(pageSpans(0, 5, 4), [
    { offset: 0, count: 4, size: 4 },
    { offset: 4, count: 1, size: 4 },
  ]);
  const big = pageSpans(0, 17, 4);
  assert.deepEqual(
    big.map((p) => [p.offset, p.count, p.size]),
    [
      [0, 16, 16],
      [16, 1, 16],
    ],
  );
  assert.deepEqual(
    pageSpans(16, 16, 4).map((p) => p.offset),
    [16, 20, 24, 28],
  );
  assert.equal(rangeWidth({ from: 0, to: 99 }, 100, 500), 100);
  assert.equal(rangeWidth({ from: 0, to: 4999 }, 100, 500), 100);
  assert.equal(rangeWidth({ from: 0, to: 60_000 }, 100, 500), 10_000);
  assert.equal(rangeWidth({ from: 1, to: 12 }, 2, 4), 4);
});

test('a run with many steps lists the unstepped episodes, then ranges of ranges of steps', () => {
  const tree = provider();
  const [run] = tree.getChildren();
  assert.ok(run?.kind === 'run');
  const top = tree.getChildren(run);
  assert.deepEqual(
    top.map((n) => label(tree, n)),
    ['no step', 'steps 0–7', 'steps 8–15'],
  );
  assert.match(String(tree.getTreeItem(top[1]!).description), /^7 steps · 105 episodes · mean reward 0\.4$/);
  const inner = tree.getChildren(top[1]);
  assert.deepEqual(
    inner.map((n) => label(tree, n)),
    ['steps 0–3', 'steps 4–7'],
  );
  const innermost = tree.getChildren(inner[0]);
  assert.deepEqual(
    innermost.map((n) => label(tree, n)),
    ['steps 0–1', 'steps 2–3'],
  );
  assert.deepEqual(
    tree.getChildren(innermost[1]).map((n) => label(tree, n)),
    ['step 2', 'step 3'],
  );
  assert.deepEqual(
    tree.getChildren(top[0]).map((n) => label(tree, n)),
    ['no group'],
  );
});

test('a group with more episodes than fit lists pages, and every episode is reachable exactly once', () => {
  const tree = provider();
  const nodes = walk(tree);
  const runLabel = label(tree, tree.getChildren()[0]!);
  const group = nodes.find((n) => n.path.join('/') === `${runLabel}/steps 8–15/steps 12–15/steps 12–13/step 12/g1`);
  assert.ok(group, 'step 12 group g1 is listed');
  assert.deepEqual(
    tree.getChildren(group.node).map((n) => label(tree, n)),
    ['episodes 1–4', 'episodes 5–5'],
  );
  const reached = nodes.flatMap(({ node }) => (node.kind === 'episode' ? [node.episode.externalId] : []));
  assert.deepEqual([...reached].sort(), allEpisodeIds());
  assert.equal(new Set(reached).size, reached.length);
  const depth = Math.max(...nodes.filter((n) => n.node.kind === 'episode').map((n) => n.path.length));
  assert.ok(depth <= 8, `deepest episode at ${depth} clicks`);
  for (const { node, path } of nodes)
    assert.ok(tree.getChildren(node).length <= maxChildren, `${path.join('/')}: ${tree.getChildren(node).length}`);
});

test('growth keeps the order and the ids of what was listed, and refreshChanged fires only the changed run', async () => {
  const tree = provider();
  const fired: unknown[] = [];
  tree.onDidChangeTreeData((e) => fired.push(e));
  const listed = walk(tree);
  const run = listed[0]?.node;
  const before = listed.map((n) => [n.path.join('/'), tree.getTreeItem(n.node).id]);
  assert.equal(tree.refreshChanged(), 0, 'nothing changed: nothing is fired');
  assert.deepEqual(fired, []);
  // A training job appends a new step and a late sample to an existing group, then a torn line.
  appendFileSync(join(root, 'steps.jsonl'), stepEpisodes(13, [0, 1]) + stepEpisodes(12, [5], ['g1']) + '{"id": "torn');
  await indexRunFolder(root, store, { search: false });
  assert.equal(tree.refreshChanged(), 1);
  const changed = fired[0] as RunsNode[] | undefined;
  assert.ok(changed?.length === 1 && changed[0] === run, 'the same run element is fired, nothing else');
  const afterGrowth = walk(tree).map((n) => [n.path.join('/'), tree.getTreeItem(n.node).id]);
  const byPath = new Map(afterGrowth.map(([path, id]) => [path, id]));
  // Only the last page of the group that grew is relabelled (episodes 5–6); its id stays.
  const kept = before.filter(([path]) => !String(path).includes('step 12/g1/episodes 5–'));
  assert.equal(kept.length, before.length - 2);
  for (const [path, id] of kept) assert.equal(byPath.get(String(path)), id, `${String(path)} kept its id`);
  const order = (rows: (string | undefined)[][]) =>
    rows.map(([path]) => path).filter((p) => kept.some(([k]) => k === p));
  assert.deepEqual(order(afterGrowth), order(before), 'what was listed keeps its order');
  const reached = walk(tree).flatMap(({ node }) => (node.kind === 'episode' ? [node.episode.externalId] : []));
  assert.deepEqual(reached.sort(), allEpisodeIds());
  assert.ok(reached.includes('s13-g2-r1') && reached.includes('s12-g1-r5'));
});
