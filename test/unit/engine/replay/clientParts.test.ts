import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CircuitBreaker } from '../../../../src/engine/evaluators/replay/circuitBreaker';
import { backoffDelay, parseRetryAfter, sleep } from '../../../../src/engine/evaluators/replay/retryPolicy';
import { Semaphore } from '../../../../src/engine/evaluators/replay/semaphore';
import { redactSecrets } from '../../../../src/engine/evaluators/replay/chatErrors';
import { chatEndpoint } from '../../../../src/engine/evaluators/replay/chatEndpoint';
import { AttemptDeadline } from '../../../../src/engine/evaluators/replay/attemptDeadline';

const cancelled = (): Error => new Error('cancelled');

test('parseRetryAfter reads delay-seconds and HTTP dates, caps them, and ignores garbage', () => {
  const now = Date.parse('2026-12-01T10:00:00Z');
  assert.equal(parseRetryAfter('2', 60_000, now), 2000);
  assert.equal(parseRetryAfter(' 1.5 ', 60_000, now), 1500);
  assert.equal(parseRetryAfter('3600', 30_000, now), 30_000, 'capped');
  assert.equal(parseRetryAfter('Tue, 01 Dec 2026 10:00:05 GMT', 60_000, now), 5000);
  assert.equal(parseRetryAfter('Tue, 01 Dec 2026 09:00:00 GMT', 60_000, now), 0, 'a date in the past: no wait');
  for (const bad of [null, undefined, '', 'soon', '-1']) assert.equal(parseRetryAfter(bad, 60_000, now), undefined);
});

test('backoffDelay doubles per retry within [ceiling/2, ceiling] and never exceeds maxMs', () => {
  const options = { baseMs: 100, maxMs: 1000 };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 10].map((retry) => backoffDelay(retry, options, () => 1)),
    [100, 200, 400, 800, 1000, 1000],
  );
  assert.deepEqual(
    [0, 1, 2].map((retry) => backoffDelay(retry, options, () => 0)),
    [50, 100, 200],
  );
});

test('sleep ends early with the abort error when its signal fires', async () => {
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(sleep(10_000, controller.signal, cancelled), /cancelled/);
  assert.ok(performance.now() - started < 1000);
  await assert.rejects(sleep(10, controller.signal, cancelled), /cancelled/, 'an aborted signal rejects at once');
});

test('Semaphore grants slots first come, first served, and a cancelled waiter leaves the queue', async () => {
  const slots = new Semaphore(1);
  const order: string[] = [];
  const first = await slots.acquire(undefined, cancelled);
  const controller = new AbortController();
  const second = slots.acquire(controller.signal, cancelled);
  const third = slots.acquire(undefined, cancelled).then((release) => {
    order.push('third');
    return release;
  });
  assert.equal(slots.waiting, 2);
  controller.abort();
  await assert.rejects(second, /cancelled/);
  assert.equal(slots.waiting, 1);
  first();
  first(); // a second release of the same slot does nothing
  const releaseThird = await third;
  assert.deepEqual(order, ['third']);
  assert.equal(slots.inUse, 1);
  releaseThird();
  assert.equal(slots.inUse, 0);
  assert.throws(() => new Semaphore(0), /positive integer/);
});

test('Semaphore.refuseAll rejects every waiter', async () => {
  const slots = new Semaphore(1);
  await slots.acquire(undefined, cancelled);
  const waiting = [slots.acquire(undefined, cancelled), slots.acquire(undefined, cancelled)];
  slots.refuseAll(new Error('closed'));
  for (const w of waiting) await assert.rejects(w, /closed/);
});

test('CircuitBreaker opens after `threshold` failures in a row, fails fast, then lets one probe through', async () => {
  let now = 0;
  const breaker = new CircuitBreaker('http://h/v1', { threshold: 3, coolDownMs: 1000 }, () => now);
  for (let i = 0; i < 2; i++)
    breaker.record(await breaker.admit(undefined, cancelled), 'down', 'connection refused (ECONNREFUSED)');
  breaker.record(await breaker.admit(undefined, cancelled), 'up');
  for (let i = 0; i < 3; i++)
    breaker.record(await breaker.admit(undefined, cancelled), 'down', 'connection refused (ECONNREFUSED)');
  assert.equal(breaker.isOpen, true);
  await assert.rejects(breaker.admit(undefined, cancelled), {
    message:
      'the model server at http://h/v1 is down: connection refused (ECONNREFUSED); 3 requests failed in a row (next try in 1.0 s)',
  });
  now = 1000;
  assert.equal(await breaker.admit(undefined, cancelled), 'probe');
  let waiterAdmitted = false;
  const waiter = breaker.admit(undefined, cancelled).then((admission) => {
    waiterAdmitted = true;
    return admission;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(waiterAdmitted, false, 'the others wait for the probe');
  breaker.record('probe', 'up');
  assert.equal(await waiter, 'regular');
  assert.equal(breaker.isOpen, false);
});

test('CircuitBreaker: a failed probe opens it again; a cancelled probe hands the probe to the next request', async () => {
  let now = 0;
  const breaker = new CircuitBreaker('http://h/v1', { threshold: 1, coolDownMs: 100 }, () => now);
  breaker.record(await breaker.admit(undefined, cancelled), 'down', 'HTTP 503: "overloaded"');
  now = 100;
  assert.equal(await breaker.admit(undefined, cancelled), 'probe');
  const waiter = breaker.admit(undefined, cancelled);
  breaker.record('probe', 'down', 'HTTP 503: "still overloaded"');
  await assert.rejects(waiter, /is down: HTTP 503: "still overloaded"; 2 requests failed in a row/);
  now = 200;
  assert.equal(await breaker.admit(undefined, cancelled), 'probe');
  breaker.record('probe', 'neutral');
  assert.equal(await breaker.admit(undefined, cancelled), 'probe', 'the cancelled probe is retried at once');
  const controller = new AbortController();
  const abandoned = breaker.admit(controller.signal, cancelled);
  controller.abort();
  await assert.rejects(abandoned, /cancelled/, 'waiting for a probe is abortable');
});

test('redactSecrets masks every occurrence of each secret', () => {
  assert.equal(
    redactSecrets('key sk-abc1 and sk-abc1 again; hdr-value', ['sk-abc1', 'hdr-value', '']),
    'key *** and *** again; ***',
  );
});

test('chatEndpoint appends /chat/completions, keeps the query out of the display name, and refuses credentials', () => {
  assert.deepEqual(chatEndpoint('http://127.0.0.1:8000/v1/'), {
    url: 'http://127.0.0.1:8000/v1/chat/completions',
    display: 'http://127.0.0.1:8000/v1',
  });
  assert.deepEqual(chatEndpoint('https://x.openai.azure.com/openai/deployments/d?api-version=2024-06-01'), {
    url: 'https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-06-01',
    display: 'https://x.openai.azure.com/openai/deployments/d',
  });
  assert.throws(() => chatEndpoint('localhost:8000'), /must start with http:\/\/ or https:\/\//);
  assert.throws(() => chatEndpoint('not a url'), /not a valid URL/);
  assert.throws(
    () => chatEndpoint('http://user:sk-secret@host/v1'),
    (error: Error) => /user name or password/.test(error.message) && !error.message.includes('sk-secret'),
  );
});

test('AttemptDeadline fires once, for the first of: the timeout, an idle gap, the outer signal', async () => {
  const aborted = new AttemptDeadline(10_000, AbortSignal.abort());
  assert.deepEqual([aborted.signal.aborted, aborted.cause], [true, 'cancelled']);
  const outer = new AbortController();
  const cancelled = new AttemptDeadline(10_000, outer.signal);
  outer.abort();
  assert.equal(cancelled.cause, 'cancelled');
  const timedOut = new AttemptDeadline(30, undefined);
  await new Promise((resolve) => timedOut.signal.addEventListener('abort', resolve));
  assert.equal(timedOut.cause, 'timeout');
  const idle = new AttemptDeadline(10_000, undefined);
  idle.armIdle(60);
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    idle.touch(); // data keeps arriving: the idle timer starts again
  }
  assert.equal(idle.cause, undefined);
  await new Promise((resolve) => idle.signal.addEventListener('abort', resolve));
  assert.equal(idle.cause, 'idle');
  const disposed = new AttemptDeadline(20, undefined);
  disposed.dispose();
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(disposed.signal.aborted, false, 'a disposed deadline never fires');
  for (const d of [aborted, cancelled, timedOut, idle]) d.dispose();
});
