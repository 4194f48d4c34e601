import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findIndexLocation } from '../../../../src/engine/indexLocation';
import { IndexStore } from '../../../../src/store/indexStore';
import { byEpisode, creditRows, echoRun, replay, withAgents } from './replayRunKit';

// Issue 14's done-when, at the engine: two agents, B only repeats A's answer, nothing logged.

describe('replay evaluator on the two-agent echo pipeline', () => {
  test('without replay LOO(A) is approximate; with replay LOO(A) = the reward and LOO(B) = 0, exact and replayed', async () => {
    const root = await echoRun();
    const checked = await creditRows({ root, method: 'loo' });
    assert.ok([...byEpisode(checked.rows, 'A').values()].every((r) => r.status === 'approximate'));
    await withAgents(async (server) => {
      const replayed = await creditRows({ root, method: 'loo', evaluator: replay(server.url) });
      const a = byEpisode(replayed.rows, 'A');
      const b = byEpisode(replayed.rows, 'B');
      assert.equal(a.size, 120);
      for (const [id, row] of a) {
        assert.equal(row.value, row.outcome, id); // 1 on the 108 successes, 0 on the 12 failures
        assert.equal(row.status, 'exact', id);
        assert.match(row.source ?? '', /replayed/, id);
        assert.equal(b.get(id)?.value, 0, id);
        assert.equal(b.get(id)?.status, 'exact', id);
      }
      assert.equal([...a.values()].filter((r) => r.value === 1).length, 108);
      // One call an episode: B regenerated after A is removed (removing B, the last agent, regenerates nothing).
      assert.equal(server.requests.length, 120);
      assert.equal(replayed.run?.usage?.calls, 120);
      assert.deepEqual(replayed.run?.estimate?.calls, 120);
      assert.equal(replayed.run?.params.params['intervention'], 'remove');
    });
  });

  test('a second run makes no call: every replayed value comes from the cache, keyed by the evaluator fingerprint', async () => {
    const root = await echoRun();
    await withAgents(async (server) => {
      const first = await creditRows({ root, method: 'loo', evaluator: replay(server.url) });
      const before = server.requests.length;
      const second = await creditRows({ root, method: 'loo', evaluator: replay(server.url) });
      assert.equal(server.requests.length, before);
      assert.equal(second.result.values.evaluated, 0);
      assert.equal(second.run?.estimate?.calls, 0);
      assert.deepEqual(
        second.rows.map((r) => r.value),
        first.rows.map((r) => r.value),
      );
      // Other sampling is another fingerprint: its values are replayed anew.
      await creditRows({ root, method: 'loo', evaluator: replay(server.url, { temperature: '0.5' }) });
      assert.equal(server.requests.length, before + 120);
    });
  });

  test('the totals of a pass are stored with its credit parameters, the estimate beside them', async () => {
    const root = await echoRun();
    await withAgents(async (server) => {
      const { run } = await creditRows({ root, method: 'loo', evaluator: replay(server.url) });
      assert.ok(run);
      const store = IndexStore.open(findIndexLocation(root)?.path ?? '');
      try {
        const stored = store.db
          .prepare('SELECT params_hash, calls, retries, failed_episodes, estimate_json FROM evaluator_usage')
          .all() as {
          params_hash: string;
          calls: number;
          retries: number;
          failed_episodes: number;
          estimate_json: string;
        }[];
        assert.equal(stored.length, 1);
        assert.equal(stored[0]?.params_hash, run.params.hash);
        assert.equal(stored[0]?.calls, 120);
        assert.equal(stored[0]?.failed_episodes, 0);
        assert.equal(JSON.parse(stored[0]?.estimate_json ?? '{}').calls, 120);
      } finally {
        store.close();
      }
    });
  });

  test('lines that declare no agents are replayed with run.json’s roster: each agent’s system prompt and model', async () => {
    const root = await echoRun({ withoutLineRosters: true });
    await withAgents(async (server) => {
      const { rows } = await creditRows({ root, method: 'loo', evaluator: replay(server.url) });
      assert.equal([...byEpisode(rows, 'A').values()].filter((r) => r.value === 1).length, 108);
      const first = server.requests[0]?.body as { model: string; messages: { role: string; content: string }[] };
      assert.equal(first.model, 'echo-pipeline-b');
      assert.match(first.messages[0]?.content ?? '', /^You are B\. Repeat the last answer/);
    });
  });

  test('run.json’s replay settings apply (models, samples), its url is ignored with a warning', async () => {
    await withAgents(async (server) => {
      const root = await echoRun({
        manifest: {
          evaluator: {
            kind: 'replay',
            options: { url: 'http://198.51.100.7:9/v1', models: { B: 'echo-pipeline-b' }, temperature: 0.3 },
          },
        },
      });
      const warnings: string[] = [];
      const { rows } = await creditRows(
        { root, method: 'loo', evaluator: replay(server.url) },
        { onWarning: (w) => warnings.push(w) },
      );
      assert.equal(rows.length, 240);
      assert.equal(server.requests.length, 120); // all to the user's server, none to run.json's
      assert.ok(server.requests.every((r) => r.body['temperature'] === 0.3));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', /run "two-agent-echo": run\.json's replay settings name "url".*ignored/);
      // Without the user's replay, run.json's replay request runs the built-in checker, with a warning.
      const fallback: string[] = [];
      const checked = await creditRows({ root, method: 'loo' }, { onWarning: (w) => fallback.push(w) });
      assert.match(checked.run?.evaluator ?? '', /^final-answer/);
      assert.match(fallback[0] ?? '', /runs only against a model server you configure/);
      assert.equal(server.requests.length, 120);
    });
  });

  test('mode default puts the removed agent’s declared default action in its place', async () => {
    const root = await echoRun({ withoutLineRosters: true });
    const manifest = {
      agents: [
        {
          name: 'A',
          kind: 'llm',
          policy: 'echo-pipeline-a',
          systemPrompt: 'You are A. Solve it.',
          defaultAction: '#### 7',
        },
        { name: 'B', kind: 'llm', policy: 'echo-pipeline-b', systemPrompt: 'You are B. Repeat it.' },
      ],
    };
    const withDefaults = await echoRun({ withoutLineRosters: true, manifest });
    await withAgents(async (server) => {
      const { run, rows } = await creditRows({
        root: withDefaults,
        method: 'loo',
        evaluator: replay(server.url, { mode: 'default' }),
      });
      assert.equal(run?.params.params['intervention'], 'default');
      assert.ok(rows.every((r) => r.intervention === 'default' || r.agent === 'B'));
      // B repeats A's default answer (7), which is wrong: LOO(A) is still the reward.
      assert.ok(server.requests.some((r) => JSON.stringify(r.body).includes('#### 7')));
      // Without a declared default action, a default replay fails with the reason, naming the agent.
      const failed = await creditRows({ root, method: 'loo', evaluator: replay(server.url, { mode: 'default' }) });
      assert.match(failed.run?.failures[0]?.reason ?? '', /agent "A" declares no default action/);
    });
  });
});
