import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { EvaluatorProcess } from '../../../src/engine/evaluators/evaluatorProcess';

const script = (name: string): string => `"${process.execPath}" "${resolve('test/fixtures/evaluators', name)}"`;
const payload = (id: string, coalitions: string[][] = [['solver'], []]) => ({
  episode: { id, messages: [] },
  kind: 'agents' as const,
  coalitions,
});

test('EvaluatorProcess.request() pairs answers with requests by id, concurrently', async () => {
  const process = new EvaluatorProcess(script('scoreByPresence.js'), '.', 5000, 3);
  try {
    const answers = await Promise.all([
      process.request(payload('a', [['solver', 'planner'], ['planner']])),
      process.request(payload('b', [['solver']])),
      process.request(payload('c', [[]])),
      process.request(payload('d', [['planner', 'solver'], ['solver']])),
    ]);
    assert.deepEqual(
      answers.map((a) => a.rewards),
      [[1, 0], [0.5], [0], [1, 0.5]],
    );
    assert.ok(
      answers.every((a) => !a.replayed),
      'no `replayed: true` in the answer: a checker, not a replay',
    );
  } finally {
    await process.close();
  }
});

test('EvaluatorProcess settles a hanging request by timeout, restarts, and serves the next one', async () => {
  const process = new EvaluatorProcess(script('misbehaving.js'), '.', 300, 2);
  try {
    await assert.rejects(process.request(payload('hang-1')), /did not answer within 300 ms; it was restarted/);
    assert.deepEqual((await process.request(payload('ok-1'))).rewards, [1, 1]);
  } finally {
    await process.close();
  }
});

test('EvaluatorProcess reports a crash with the stderr tail and restarts on the next request', async () => {
  const process = new EvaluatorProcess(script('misbehaving.js'), '.', 5000, 2);
  try {
    await assert.rejects(process.request(payload('crash-1')), /exited with code 3.*fatal segfault simulation/);
    assert.deepEqual((await process.request(payload('ok-2'))).rewards, [1, 1]);
  } finally {
    await process.close();
  }
});

test('EvaluatorProcess: an answer with `replayed: true` says downstream agents were re-generated', async () => {
  const process = new EvaluatorProcess(script('misbehaving.js'), '.', 5000, 1);
  try {
    assert.deepEqual(await process.request(payload('replay-1')), { rewards: [1, 1], replayed: true });
    assert.deepEqual(await process.request(payload('ok-4')), { rewards: [1, 1], replayed: false });
  } finally {
    await process.close();
  }
});

test('EvaluatorProcess turns error answers and malformed rewards into per-request errors; garbage times out', async () => {
  const process = new EvaluatorProcess(script('misbehaving.js'), '.', 400, 4);
  try {
    const [error, garbage, fine] = await Promise.allSettled([
      process.request(payload('error-1')),
      process.request(payload('garbage-1')),
      process.request(payload('ok-3')),
    ]);
    assert.match(
      String(error.status === 'rejected' && error.reason),
      /the evaluator reported: judge model unavailable/,
    );
    assert.equal(garbage.status, 'rejected');
    assert.match(String(garbage.status === 'rejected' && garbage.reason), /did not answer within 400 ms/);
    assert.ok(fine.status === 'fulfilled' || /restarted/.test(String(fine.reason)));
  } finally {
    await process.close();
  }
});

test('EvaluatorProcess gives up after repeated crashes instead of restarting forever', async () => {
  const process = new EvaluatorProcess(script('misbehaving.js'), '.', 5000, 1);
  try {
    for (let i = 0; i < 5; i++) await assert.rejects(process.request(payload(`crash-${i}`)));
    await assert.rejects(process.request(payload('ok-4')), /failed 5 times in a row and was given up/);
  } finally {
    await process.close();
  }
});

test('EvaluatorProcess reports a command that does not exist', async () => {
  const process = new EvaluatorProcess('definitely-not-a-command-xyz', '.', 5000, 1);
  try {
    await assert.rejects(process.request(payload('x')), /exited with code 127|not found/);
  } finally {
    await process.close();
  }
});
