import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { runCli } from '../../../../src/cli/main';
import { playDemoAgent } from '../../../../src/demo/demoAgents';
import { teamRunName } from '../../../../src/demo/teamEpisodes';
import { writeDemoRun } from '../../../../src/demo/writeDemoRun';
import { InfluenceService } from '../../../../src/engine/influence/influenceService';
import { replayInfluence } from '../../../../src/engine/influence/replayInfluenceJob';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { findIndexLocation } from '../../../../src/engine/indexLocation';
import type { InfluenceEdgeView } from '../../../../src/protocol/influence';
import { openDatabase } from '../../../../src/store/database';
import { tempFolder } from '../../../builders/episodeBuilder';
import { replay, withAgents } from '../replay/replayRunKit';

// Replayed influence (credit-methods.md §3.17) on the demo, replayed by the demo's own agents on a
// local OpenAI-compatible server. The demo's verifier stops catching errors from step 7 on
// (learningCurves.ts) and speaks last, so from then on removing it or its message changes nothing.

let demo = '';
const late: string[] = [];
let catching = '';

before(async () => {
  demo = tempFolder();
  writeDemoRun(demo, { episodes: 240, groupsPerStep: 8, seed: 3 });
  await runIndexJob({ root: demo, search: false });
  const db = openDatabase(findIndexLocation(demo)?.path ?? '', { readonly: true });
  try {
    const rows = db
      .prepare<{ external_id: string }>(
        `SELECT e.external_id FROM episode e JOIN run r ON r.run_id = e.run_id
         WHERE r.name = ? AND e.train_step = 8 ORDER BY e.episode_id LIMIT 3`,
      )
      .all(teamRunName);
    late.push(...rows.map((r) => r.external_id));
    // An early episode in which the verifier caught the solver's error (its logged removal costs the reward).
    const service = new InfluenceService(db);
    const early = db
      .prepare<{ episode_id: number; external_id: string }>(
        `SELECT e.episode_id, e.external_id FROM episode e JOIN run r ON r.run_id = e.run_id
         WHERE r.name = ? AND e.train_step = 1 ORDER BY e.episode_id`,
      )
      .all(teamRunName);
    for (const e of early) {
      const graph = await service.episode(e.episode_id);
      const removal = graph?.edges.find((x) => x.from === 'verifier' && x.to === null && x.kind === 'counterfactual');
      if (removal && removal.value > 0) {
        catching = e.external_id;
        break;
      }
    }
  } finally {
    db.close();
  }
  assert.equal(late.length, 3);
  assert.notEqual(catching, '');
});

const choice = (url: string) => replay(url) as Extract<ReturnType<typeof replay>, { kind: 'replay' }>;

/** Runs the CLI in this process (so the local server here answers it) and captures what it prints. */
async function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

const messageEdges = (edges: readonly InfluenceEdgeView[]) => edges.filter((e) => e.message !== undefined);
const outputEdges = (edges: readonly InfluenceEdgeView[]) => edges.filter((e) => e.kind === 'replayed-output');

describe('replayed influence on the demo', () => {
  test('the late verifier: every replayed edge out of it is exactly 0 and it has no influence; the planner moves its partners', async () => {
    await withAgents(
      async (server) => {
        const plannerEffects: number[] = [];
        const before = server.requests.length;
        for (const episode of late) {
          const [g] = await replayInfluence({ root: demo, episode, run: teamRunName, replay: choice(server.url) });
          assert.ok(g, episode);
          const edges = g.graph.edges;
          // One message per agent: planner #1, solver #2, verifier #3, each with its replayed effect on the outcome.
          assert.deepEqual(
            messageEdges(edges).map((e) => `${e.from}#${String(e.message)}`),
            ['planner#0', 'solver#1', 'verifier#2'],
          );
          const verifier = edges.filter(
            (e) => e.from === 'verifier' && (e.message !== undefined || e.kind === 'replayed-output'),
          );
          assert.equal(verifier.length, 3, episode); // its message edge, its output edges to planner and solver
          assert.ok(
            verifier.every((e) => e.value === 0 && e.exact),
            JSON.stringify(verifier),
          );
          assert.equal(g.graph.agents.find((a) => a.name === 'verifier')?.noInfluence, true, episode);
          // Without the planner the solver writes another solution: its words move (and the verifier's after it).
          const plannerToSolver = outputEdges(edges).find((e) => e.from === 'planner' && e.to === 'solver');
          assert.ok(plannerToSolver && plannerToSolver.value > 0, JSON.stringify(plannerToSolver));
          assert.match(
            plannerToSolver.provenance,
            /1 − Jaccard\(words of solver's output without planner, with planner\), replayed/,
          );
          assert.ok(messageEdges(edges).every((e) => /v\(M\) − v\(M∖\{#\d\}\), replayed/.test(e.provenance)));
          assert.deepEqual(g.replay.notes, []);
          assert.deepEqual(g.replay.messages, { total: 3, computed: 3 });
          plannerEffects.push(messageEdges(edges).find((e) => e.from === 'planner')?.value ?? NaN);
        }
        assert.ok(
          plannerEffects.some((v) => v !== 0),
          `planner's message effects ${plannerEffects.join(', ')}`,
        );
        const lateCalls = server.requests.length - before;
        // Early on the verifier catches errors: dropping its message loses the reward, as its logged removal does.
        const [early] = await replayInfluence({
          root: demo,
          episode: catching,
          run: teamRunName,
          replay: choice(server.url),
        });
        const verifierMessage = messageEdges(early?.graph.edges ?? []).find((e) => e.from === 'verifier');
        assert.equal(verifierMessage?.value, 1, catching);
        assert.equal(early?.graph.agents.find((a) => a.name === 'verifier')?.noInfluence, false);
        // Per episode: dropping #1 regenerates solver and verifier (2 calls), #2 the verifier (1), #3 nothing;
        // the planner's output pair needs 3 + 2 calls, the solver's 2 + 1, the verifier's none (no one speaks after it).
        assert.equal(lateCalls, late.length * (2 + 1 + 5 + 3));
      },
      { agent: playDemoAgent },
    );
  });

  test('a second pass reuses the cache: no call, the same values, said cached; the Episode view reads them from the index', async () => {
    const root = tempFolder();
    writeDemoRun(root, { episodes: 64 });
    await runIndexJob({ root, search: false });
    await withAgents(
      async (server) => {
        const args = { root, episode: 's2-g7-r3', run: teamRunName, replay: choice(server.url) };
        const [first] = await replayInfluence(args);
        const calls = server.requests.length;
        assert.equal(calls, 11);
        const [second] = await replayInfluence(args);
        assert.equal(server.requests.length, calls, 'the second pass made calls');
        assert.equal(second?.replay.usage.calls, 0);
        const replayed = [...messageEdges(first?.graph.edges ?? []), ...outputEdges(first?.graph.edges ?? [])];
        const again = [...messageEdges(second?.graph.edges ?? []), ...outputEdges(second?.graph.edges ?? [])];
        assert.deepEqual(
          again.map((e) => e.value),
          replayed.map((e) => e.value),
        );
        assert.ok(
          again.every((e) => /, cached/.test(e.provenance)),
          again[0]?.provenance,
        );
        // The planner's removal changes the solver's final answer in this episode (its logged LOO is 1).
        const answer = outputEdges(again).find((e) => e.from === 'planner' && e.to === 'solver')?.answerChanged;
        assert.equal(answer, 1);
      },
      { agent: playDemoAgent },
    );
    const db = openDatabase(findIndexLocation(root)?.path ?? '', { readonly: true });
    try {
      const row = db
        .prepare<{ episode_id: number }>(
          'SELECT e.episode_id FROM episode e JOIN run r ON r.run_id = e.run_id WHERE r.name = ? AND e.external_id = ?',
        )
        .get(teamRunName, 's2-g7-r3');
      const view = await new InfluenceService(db).episode(row?.episode_id ?? -1);
      assert.equal(messageEdges(view?.edges ?? []).length, 3);
      assert.equal(outputEdges(view?.edges ?? []).length, 6);
      assert.ok(outputEdges(view?.edges ?? []).every((e) => /replayed \(cached in the index\)/.test(e.provenance)));
    } finally {
      db.close();
    }
  });

  test('--max-messages bounds the message edges and says which were not computed', async () => {
    const root = tempFolder();
    writeDemoRun(root, { episodes: 64 });
    await runIndexJob({ root, search: false });
    await withAgents(
      async (server) => {
        const result = await cli(
          'influence',
          root,
          '--episode',
          's1-g0-r0',
          '--run',
          teamRunName,
          '--replay',
          `url=${server.url}`,
          '--max-messages',
          '1',
          '--json',
        );
        assert.equal(result.status, 0, result.stderr);
        const [g] = (
          JSON.parse(result.stdout) as {
            graphs: {
              graph: { edges: InfluenceEdgeView[] };
              replay: { notes: string[]; messages: { computed: number } };
            }[];
          }
        ).graphs;
        assert.deepEqual(
          messageEdges(g?.graph.edges ?? []).map((e) => e.message),
          [0],
        );
        assert.equal(g?.replay.messages.computed, 1);
        assert.deepEqual(g?.replay.notes, ['message edges of messages #2–#3 not computed (--max-messages 1)']);
        // Message #1 (2 calls) and the output pairs (5 + 3): messages #2 and #3 were not replayed.
        assert.equal(server.requests.length, 2 + 5 + 3);
      },
      { agent: playDemoAgent },
    );
  });

  test('the CLI prints the replayed edges with their kind and source, and refuses --replay without --episode', async () => {
    const root = tempFolder();
    writeDemoRun(root, { episodes: 64 });
    await runIndexJob({ root, search: false });
    await withAgents(
      async (server) => {
        const text = await cli(
          'influence',
          root,
          '--episode',
          's1-g0-r0',
          '--run',
          teamRunName,
          '--replay',
          server.url,
        );
        assert.equal(text.status, 0, text.stderr);
        assert.match(text.stdout, /replay: message edges for 3 of 3 messages; estimate 11 calls/);
        assert.match(
          text.stdout,
          /planner #1 → outcome {2}[+-]\d\.\d{3} {2}counterfactual, exact: v\(M\) − v\(M∖\{#1\}\), replayed/,
        );
        assert.match(text.stdout, /solver → verifier {2}\+\d\.\d{3} {2}replayed-output, exact: 1 − Jaccard/);
      },
      { agent: playDemoAgent },
    );
    const usage = await cli('influence', root, '--replay', 'http://127.0.0.1:9/v1');
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--replay needs --episode ID/);
    const budgetAlone = await cli('influence', root, '--episode', 's1-g0-r0', '--max-messages', '2');
    assert.equal(budgetAlone.status, 2);
    assert.match(budgetAlone.stderr, /--max-messages needs --replay/);
  });

  test('a model server that is down: the replays fail, nothing is invented, the reason is said', async () => {
    const root = tempFolder();
    writeDemoRun(root, { episodes: 64 });
    await runIndexJob({ root, search: false });
    const [g] = await replayInfluence({
      root,
      episode: 's1-g0-r0',
      run: teamRunName,
      replay: choice('http://127.0.0.1:9/v1'),
      replayDeps: { clientOptions: { retries: 0, backoff: { baseMs: 1, maxMs: 2 } } },
    });
    assert.ok(g);
    // Only what needs no call: the last message's edge and the verifier's output pairs (no one speaks after it).
    assert.deepEqual(
      messageEdges(g.graph.edges).map((e) => e.message),
      [2],
    );
    assert.deepEqual(
      outputEdges(g.graph.edges).map((e) => `${e.from}→${e.to ?? ''}`),
      ['verifier→planner', 'verifier→solver'],
    );
    assert.ok(
      g.replay.notes.some((n) => /a replay failed: .*127\.0\.0\.1:9/.test(n)),
      g.replay.notes.join('\n'),
    );
  });
});
