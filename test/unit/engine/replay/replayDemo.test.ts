import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { playDemoAgent } from '../../../../src/demo/demoAgents';
import { writeDemoRun } from '../../../../src/demo/writeDemoRun';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { tempFolder } from '../../../builders/episodeBuilder';
import { creditRows, replay, withAgents } from './replayRunKit';

// The demo logs every counterfactual, and its agents are a deterministic program whose luck is the
// request's seed: replaying its episodes with their logged seeds must reproduce the logged values.

const team = 'planner-solver-verifier';
let demo = '';

before(async () => {
  demo = tempFolder();
  writeDemoRun(demo, { episodes: 64 });
  await runIndexJob({ root: demo, search: false });
});

const key = (r: { external_id: string; agent: string }): string => `${r.external_id}/${r.agent}`;

/** Leave-one-out of the team run, every value replayed at `url`. */
const replayAll = (root: string, url: string) =>
  creditRows({ root, method: 'loo', run: team, useLogged: false, evaluator: replay(url) });

describe('replay on the demo, served by the demo’s agents', () => {
  test('replayed leave-one-out equals the logged leave-one-out, episode by episode', async () => {
    const logged = await creditRows({ root: demo, method: 'loo', run: team });
    await withAgents(
      async (server) => {
        const replayed = await creditRows({
          root: demo,
          method: 'loo',
          run: team,
          useLogged: false,
          evaluator: replay(server.url),
        });
        assert.equal(replayed.run?.failures.length, 0, replayed.run?.failures[0]?.reason);
        const values = new Map(logged.rows.map((r) => [key(r), r.value]));
        assert.equal(replayed.rows.length, 64 * 3);
        for (const row of replayed.rows) {
          assert.equal(row.value, values.get(key(row)), key(row));
          assert.equal(row.status, 'exact');
          assert.doesNotMatch(row.source ?? '', /logged/);
        }
        // Without the planner, solver and verifier are regenerated; without the solver, the verifier; without the verifier, nothing.
        assert.equal(server.requests.length, 64 * 3);
        assert.ok(logged.rows.some((r) => r.value !== 0));
      },
      { agent: playDemoAgent },
    );
  });

  test('--budget spends at most N replay calls and reports the calls it saves', async () => {
    await withAgents(
      async (server) => {
        const { run } = await creditRows({
          root: demo,
          method: 'loo',
          run: team,
          useLogged: false,
          budget: 60,
          evaluator: replay(server.url),
        });
        const budget = run?.budget;
        assert.ok(budget);
        assert.ok(server.requests.length <= 60, `${server.requests.length} calls`);
        assert.equal(budget.spentCost, server.requests.length);
        assert.equal(budget.fullCost, 64 * 3);
        assert.ok(budget.exactEpisodes < 64 && budget.exactEpisodes > 0);
        assert.deepEqual(
          budget.agents.map((a) => a.agent),
          ['planner', 'solver', 'verifier'],
        );
        assert.ok(budget.agents.every((a) => Number.isFinite(a.estimate) && a.stderr >= 0));
      },
      { agent: playDemoAgent },
    );
  });

  test('an episode that fails after some replays keeps them: the rerun sends only the failed ones', async () => {
    const root = tempFolder();
    writeDemoRun(root, { episodes: 16 });
    await runIndexJob({ root, search: false });
    const solverFails = {
      agent: playDemoAgent,
      fault: (request: { messages: readonly { role: string; content: string }[] }) =>
        request.messages[0]?.content.startsWith('You are the solver.') ? ({ kind: 'malformed' } as const) : undefined,
    };
    const port = await withAgents(async (server) => {
      const { run } = await replayAll(root, server.url);
      assert.equal(run?.computed, 0);
      assert.match(run?.failures[0]?.reason ?? '', /replaying the episode without planner failed/);
      return server.port;
    }, solverFails);
    await withAgents(
      async (server) => {
        const { run } = await replayAll(root, server.url);
        assert.equal(run?.computed, 16);
        // Only "without the planner" (solver, then verifier) is replayed again; "without the solver" was cached.
        assert.equal(server.requests.length, 16 * 2);
      },
      { agent: playDemoAgent, port },
    );
  });
});
