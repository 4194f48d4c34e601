import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCreditJob } from '../../../../src/engine/credit/creditJob';
import { alwaysFault, type ChatFault, type FaultHook } from '../../../../src/engine/evaluators/replay/localChatFaults';
import { findIndexLocation } from '../../../../src/engine/indexLocation';
import { IndexStore } from '../../../../src/store/indexStore';
import { downUrl, eventually } from './replayTestKit';
import { creditRows, echoRun, fastClient, replay, withAgents } from './replayRunKit';

/** Credit and error rows stored for the run's episodes. */
function stored(root: string): { credited: Set<string>; errors: Map<string, string> } {
  const store = IndexStore.open(findIndexLocation(root)?.path ?? '');
  try {
    const credited = store.db
      .prepare('SELECT DISTINCT e.external_id AS id FROM credit c JOIN episode e USING (episode_id)')
      .all() as { id: string }[];
    const errors = store.db
      .prepare('SELECT e.external_id AS id, x.reason FROM credit_error x JOIN episode e USING (episode_id)')
      .all() as { id: string; reason: string }[];
    return { credited: new Set(credited.map((r) => r.id)), errors: new Map(errors.map((r) => [r.id, r.reason])) };
  } finally {
    store.close();
  }
}

/** A fault for the requests of the episodes asking `What is 76 + 71?` (group s1-g0, 5 episodes), none for the others. */
function faultFor(fault: ChatFault): FaultHook {
  return (request) => (request.messages.some((m) => m.content === 'What is 76 + 71?') ? fault : undefined);
}

describe('replay faults: each ends with a per-episode error naming the endpoint, no hang, no partial credit', () => {
  const cases: { name: string; fault: ChatFault; stream?: boolean; reason: RegExp }[] = [
    { name: '500 forever', fault: { kind: 'status', status: 500 }, reason: /HTTP 500.*\(after 2 retries\)/ },
    { name: 'a malformed reply', fault: { kind: 'malformed' }, reason: /not valid JSON/ },
    {
      name: 'a stream cut',
      fault: { kind: 'stop', afterChunks: 2 },
      stream: true,
      // Node 20's fetch ends the body (the client says where the stream stopped); Node 24's undici
      // reports the closed socket. Either way the error names the endpoint and the cause.
      reason: /stream stopped|the server closed the connection/,
    },
  ];
  for (const c of cases)
    test(`${c.name}: the faulty episodes fail, the others' credit is stored`, async () => {
      const root = await echoRun();
      await withAgents(
        async (server) => {
          const started = Date.now();
          const { run } = await creditRows({
            root,
            method: 'loo',
            evaluator: replay(server.url, c.stream ? { stream: 'true' } : {}),
            replayDeps: { clientOptions: { ...fastClient.clientOptions, breaker: { threshold: 1000 } } },
          });
          assert.ok(Date.now() - started < 20_000);
          assert.equal(run?.computed, 115);
          const { credited, errors } = stored(root);
          assert.equal(errors.size, 5);
          for (const [id, reason] of errors) {
            assert.ok(!credited.has(id), `${id} has credit rows and an error`);
            assert.match(reason, /^replaying the episode without A failed: /);
            assert.match(reason, new RegExp(`model server at ${server.url.replace(/[./]/g, '\\$&')}`));
            assert.match(reason, c.reason);
          }
          assert.equal(credited.size, 115);
          assert.equal(run?.usage?.failedEpisodes, 5);
        },
        { fault: faultFor(c.fault) },
      );
    });

  test('a server that is down: every episode fails fast (the breaker opens), the run completes', async () => {
    const root = await echoRun();
    const { url } = await downUrl();
    const started = Date.now();
    const { run } = await creditRows({ root, method: 'loo', evaluator: replay(url), replayDeps: fastClient });
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    assert.equal(run?.computed, 0);
    assert.equal(run?.failures.length, 120);
    assert.match(run?.failures.at(-1)?.reason ?? '', /the model server at http:\/\/127\.0\.0\.1:\d+\/v1 is down/);
    assert.equal(stored(root).credited.size, 0);
  });

  test('a rerun after failures resumes: only the failed counterfactuals are replayed', async () => {
    const root = await echoRun();
    // The same endpoint (the URL is part of the cache key), now answering every request.
    const port = await withAgents(
      async (server) => {
        await creditRows({ root, method: 'loo', evaluator: replay(server.url), replayDeps: fastClient });
        return server.port;
      },
      { fault: faultFor({ kind: 'malformed' }) },
    );
    await withAgents(
      async (server) => {
        const { run } = await creditRows({ root, method: 'loo', evaluator: replay(server.url) });
        assert.equal(server.requests.length, 5);
        assert.equal(run?.computed, 120);
        assert.equal(stored(root).errors.size, 0);
      },
      { port },
    );
  });
});

describe('replay cancellation through the engine’s signal', () => {
  test('aborting the job cancels the calls in flight at once; nothing is stored as failed', async () => {
    const root = await echoRun();
    await withAgents(
      async (server) => {
        const controller = new AbortController();
        const job = runCreditJob({ root, method: 'loo', evaluator: replay(server.url) }, { signal: controller.signal });
        await eventually(() => server.inFlight > 0, 5000);
        const aborted = Date.now();
        controller.abort();
        const result = await job;
        assert.ok(Date.now() - aborted < 1000, `took ${Date.now() - aborted} ms after the abort`);
        assert.equal(result.cancelled, true);
        assert.equal(result.runs[0]?.failures.length, 0);
        assert.equal(stored(root).errors.size, 0);
        await eventually(() => server.abandoned > 0 && server.inFlight === 0);
      },
      { fault: alwaysFault({ kind: 'hang' }) },
    );
  });

  test('isCancelled turning true (the VS Code path) aborts the calls in flight too', async () => {
    const root = await echoRun();
    await withAgents(
      async (server) => {
        let cancelled = false;
        const job = runCreditJob(
          { root, method: 'loo', evaluator: replay(server.url) },
          { isCancelled: () => cancelled },
        );
        await eventually(() => server.inFlight > 0, 5000);
        cancelled = true;
        const result = await job;
        assert.equal(result.cancelled, true);
        assert.equal(stored(root).errors.size, 0);
      },
      { fault: alwaysFault({ kind: 'hang' }) },
    );
  });
});
