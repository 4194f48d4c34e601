import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Episode } from '../../../../src/core/episode';
import { InfluenceAggregate } from '../../../../src/engine/influence/influenceAggregate';
import { influenceGraph, noInfluenceOf } from '../../../../src/engine/influence/influenceGraph';
import { readInfluence } from '../../../../src/engine/influence/influenceJob';
import { runIndexJob } from '../../../../src/engine/indexJob';
import type { InfluenceEdgeView, InfluenceGraphView } from '../../../../src/protocol/influence';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';

const agents = ['a', 'b', 'c'].map((name) => ({ name, kind: 'llm' as const }));
const say = (agent: string, extra: object = {}) => ({ agent, content: `${agent} speaks`, ...extra });

async function indexed(episodes: readonly Episode[]): Promise<string> {
  const root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(...episodes));
  writeFileSync(
    join(root, 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', mechanism: 'pipeline' }),
  );
  await runIndexJob({ root, search: false });
  return root;
}

async function graphOf(root: string, options: { episode?: string; steps?: [number, number] } = {}) {
  const [first] = await readInfluence({ root, ...options });
  assert.ok(first);
  return first.graph;
}

function edge(graph: InfluenceGraphView, from: string, to: string | null, kind: string): InfluenceEdgeView {
  const found = graph.edges.find((e) => e.from === from && e.to === to && e.kind === kind);
  assert.ok(found, `no ${kind} edge ${from} → ${to ?? 'outcome'} in ${JSON.stringify(graph.edges)}`);
  return found;
}

const messageGap =
  /no replayed message → outcome edges \(replay with `credit-lens influence <run-dir> --episode ID --replay url=…`/;

/** The AND game of a and b (E3) with an idle c: v(S) = 1 when a and b are both in S. */
const andGame = [0, 1, 2, 3, 4, 5, 6, 7].map((mask) => ({
  agents: agents.filter((_, i) => (mask & (1 << i)) !== 0).map((a) => a.name),
  value: (mask & 3) === 3 ? 1 : 0,
}));

test('influence from logged coalitions: v(N) − v(N∖{i}) to the outcome and the pair interaction, exact', async () => {
  const root = await indexed([
    episode('and', { agents, messages: [say('a'), say('b'), say('c')], coalitions: andGame, reward: 1 }),
  ]);
  const graph = await graphOf(root, { episode: 'and' });
  assert.equal(edge(graph, 'a', null, 'counterfactual').value, 1);
  assert.equal(edge(graph, 'b', null, 'counterfactual').value, 1);
  assert.equal(edge(graph, 'c', null, 'counterfactual').value, 0);
  // v(N) − v(N∖{a}) − v(N∖{b}) + v(N∖{a,b}) = 1 − 0 − 0 + 0, drawn from the earlier speaker.
  const ab = edge(graph, 'a', 'b', 'counterfactual');
  assert.equal(ab.value, 1);
  assert.equal(ab.exact, true);
  assert.equal(edge(graph, 'a', 'c', 'counterfactual').value, 0);
  assert.deepEqual(
    graph.agents.map((a) => [a.name, a.noInfluence]),
    [
      ['a', false],
      ['b', false],
      ['c', true],
    ],
  );
  assert.match(graph.missing ?? '', /no logged attribution weights/);
  assert.doesNotMatch(graph.missing ?? '', messageGap, 'each agent speaks once: its removal is its message’s');
});

test('an agent speaking twice: its one-message removal is never logged, so the episode graph says a replay would give it', async () => {
  // Coalition values are of agents; {a's first message} removed alone is no agent coalition.
  const root = await indexed([
    episode('twice', { agents, messages: [say('a'), say('b'), say('a')], coalitions: andGame, reward: 1 }),
    episode('once', { agents, messages: [say('a'), say('b'), say('c')], coalitions: andGame, reward: 1 }),
  ]);
  const twice = await graphOf(root, { episode: 'twice' });
  assert.match(twice.missing ?? '', messageGap);
  assert.equal(edge(twice, 'a', null, 'counterfactual').value, 1, 'the agent edges are still drawn');
  assert.ok(twice.edges.every((e) => e.to === null || agents.some((a) => a.name === e.to)));
  assert.doesNotMatch((await graphOf(root, { episode: 'once' })).missing ?? '', messageGap);
  // The step-range aggregate is of agents only: no message-level gap there.
  const [range] = await readInfluence({ root });
  assert.doesNotMatch(range?.graph.missing ?? '', messageGap);
});

test('logged connections become agent edges with summed weights, self-edges kept, signs kept', async () => {
  const messages = [
    say('a'),
    say('b', { connections: [0], weights: [0.5] }),
    say('a', { connections: [0, 1], weights: [0.25, -0.5] }),
  ];
  const root = await indexed([episode('w', { agents, messages, reward: 1 })]);
  const graph = await graphOf(root, { episode: 'w' });
  const ab = edge(graph, 'a', 'b', 'logged');
  assert.equal(ab.value, 0.5);
  assert.equal(ab.connections, 1);
  assert.match(ab.provenance, /#1→#2/);
  assert.equal(edge(graph, 'a', 'a', 'logged').value, 0.25);
  assert.equal(edge(graph, 'b', 'a', 'logged').value, -0.5);
  // Without a logged removal nobody's effect on the outcome is known: never "no influence".
  assert.ok(graph.agents.every((a) => a.noInfluence !== true));
  assert.equal(graph.agents.find((a) => a.name === 'c')?.noInfluence, null);
  assert.match(graph.missing ?? '', /no logged removal of an agent/);
});

test('a removal logged without replay, with later speakers, gives an approximate edge', async () => {
  const counterfactuals = [{ intervention: 'remove' as const, agents: ['a'], reward: 0.25, replayed: false }];
  const root = await indexed([
    episode('approx', { agents, messages: [say('a'), say('b')], counterfactuals, reward: 1 }),
  ]);
  const graph = await graphOf(root, { episode: 'approx' });
  const a = edge(graph, 'a', null, 'counterfactual');
  assert.equal(a.value, 0.75);
  assert.equal(a.exact, false);
});

test('the run aggregate is the mean per edge over the episodes of the step range, with their count', async () => {
  const cf = (reward: number) => [{ intervention: 'remove' as const, agents: ['a'], reward, replayed: true }];
  const root = await indexed([
    episode('s1', { step: 1, agents, messages: [say('a')], counterfactuals: cf(0), reward: 1 }),
    episode('s2', { step: 2, agents, messages: [say('a')], counterfactuals: cf(0.5), reward: 1 }),
    episode('s3', { step: 3, agents, messages: [say('a')], counterfactuals: cf(1), reward: 1 }),
  ]);
  const graph = await graphOf(root, { steps: [1, 2] });
  assert.equal(graph.episodes, 2);
  const a = edge(graph, 'a', null, 'counterfactual');
  assert.equal(a.value, 0.75);
  assert.equal(a.episodes, 2);
  assert.match(a.provenance, /mean over 2 episodes/);
  const late = await graphOf(root, { steps: [3, 3] });
  assert.equal(edge(late, 'a', null, 'counterfactual').value, 0);
  assert.equal(late.agents.find((x) => x.name === 'a')?.noInfluence, true);
});

test('an episode with bad connections is reported at its line and the others are indexed', async () => {
  const bad = episode('bad', { agents, messages: [say('a', { connections: [1], weights: [1] }), say('b')] });
  const root = await indexed([bad, episode('good', { agents, messages: [say('a')] })]);
  await assert.rejects(readInfluence({ root, episode: 'bad' }), /no episode "bad"/);
  const good = await graphOf(root, { episode: 'good' });
  assert.equal(good.edges.length, 0);
  assert.match(good.missing ?? '', /no logged attribution weights/);
});

const edgeOf = (value: number, exact = true, to: string | null = null): InfluenceEdgeView => ({
  from: 'a',
  to,
  kind: 'counterfactual',
  value,
  exact,
  provenance: 'v(N) − v(N∖{a}), logged',
  connections: 0,
  episodes: 1,
});

test('"no influence" needs an exact zero removal: an approximate zero leaves it unknown', () => {
  assert.equal(noInfluenceOf('a', [edgeOf(0)]), true);
  assert.equal(noInfluenceOf('a', [edgeOf(0, false)]), null);
  assert.equal(noInfluenceOf('a', [edgeOf(0, false), edgeOf(0.4, false, 'b')]), false);
});

test('a mean of +1 and −1 over episodes is 0 but is not "no influence": the largest value behind it says so', () => {
  const aggregate = new InfluenceAggregate();
  aggregate.add([edgeOf(1)]);
  aggregate.add([edgeOf(-1)]);
  const [mean] = aggregate.edges();
  assert.equal(mean?.value, 0);
  assert.equal(mean?.largest, 1);
  assert.equal(mean?.provenance, 'mean over 2 episodes of v(N) − v(N∖{a}), logged');
  assert.equal(noInfluenceOf('a', aggregate.edges()), false);
  const quiet = new InfluenceAggregate();
  quiet.add([edgeOf(0)]);
  quiet.add([edgeOf(0)]);
  assert.equal(noInfluenceOf('a', quiet.edges()), true);
});

test('the message-level gap: none when every message was replayed, the count when some were, the replay command when none were', () => {
  const replayedMessage = (message: number) => ({
    from: 'a',
    to: null,
    kind: 'counterfactual' as const,
    value: 0.5,
    exact: true,
    provenance: `v(M) − v(M∖{#${String(message + 1)}}), replayed`,
    connections: 0,
    episodes: 1,
    message,
  });
  const authors = [0, 1, 0];
  assert.match(influenceGraph(['a', 'b'], [], 1, 0, authors).missing ?? '', messageGap);
  const some = influenceGraph(['a', 'b'], [replayedMessage(0)], 1, 0, authors).missing ?? '';
  assert.match(
    some,
    /message → outcome edges replayed for 1 message of 3; the others were not computed \(raise --max-messages/,
  );
  const all = influenceGraph(['a', 'b'], [0, 1, 2].map(replayedMessage), 1, 0, authors).missing ?? '';
  assert.doesNotMatch(all, /message → outcome/);
  // Message edges are not an agent's removal: that gap stays.
  assert.match(all, /no logged removal of an agent/);
});
