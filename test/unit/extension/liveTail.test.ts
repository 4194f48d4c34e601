import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readIndexSummary, runIndexJob } from '../../../src/engine/indexJob';
import { LiveTail } from '../../../src/extension/liveTail';
import { episode, episodes, jsonl, tempFolder } from '../../builders/episodeBuilder';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function harness(runPass: (folder: string) => Promise<unknown>) {
  const listeners = new Map<string, () => void>();
  const passes: { folder: string; error?: unknown }[] = [];
  const tail = new LiveTail({
    watch: (folder, onChange) => {
      listeners.set(folder, onChange);
      return { dispose: () => listeners.delete(folder) };
    },
    runPass,
    onPass: (folder, error) => passes.push({ folder, ...(error ? { error } : {}) }),
    debounceMs: 20,
  });
  return { tail, passes, fire: (folder: string) => listeners.get(folder)?.(), listeners };
}

test('LiveTail debounces a burst of changes into one pass', async () => {
  let runs = 0;
  const { tail, passes, fire } = harness(() => {
    runs++;
    return Promise.resolve();
  });
  tail.follow('/run');
  for (let i = 0; i < 5; i++) fire('/run');
  await sleep(80);
  assert.equal(runs, 1);
  assert.deepEqual(passes, [{ folder: '/run' }]);
  tail.dispose();
});

test('LiveTail never overlaps passes and runs exactly one more after changes during a pass', async () => {
  let active = 0;
  let maxActive = 0;
  let runs = 0;
  const { tail, fire } = harness(async () => {
    active++;
    maxActive = Math.max(maxActive, active);
    runs++;
    await sleep(60);
    active--;
  });
  tail.follow('/run');
  fire('/run');
  await sleep(40);
  fire('/run');
  fire('/run');
  await sleep(250);
  assert.equal(maxActive, 1);
  assert.equal(runs, 2);
  tail.dispose();
});

test('LiveTail reports a failed pass and keeps following; unfollow and dispose stop the watchers', async () => {
  const { tail, passes, fire, listeners } = harness(() => Promise.reject(new Error('index locked')));
  tail.follow('/a');
  tail.follow('/a');
  tail.follow('/b');
  assert.deepEqual(tail.following, ['/a', '/b']);
  fire('/a');
  await sleep(60);
  assert.match(String(passes[0]?.error), /index locked/);
  tail.unfollow('/a');
  assert.equal(listeners.has('/a'), false);
  tail.dispose();
  assert.equal(listeners.size, 0);
});

test('LiveTail with the real indexer: appended episodes are in the index within one pass', async () => {
  const root = tempFolder();
  const file = join(root, 'steps.jsonl');
  writeFileSync(file, jsonl(...episodes(0, 3)));
  await runIndexJob({ root, search: false });
  const { tail, passes, fire } = harness((folder) => runIndexJob({ root: folder, search: false }));
  tail.follow(root);
  const started = Date.now();
  appendFileSync(file, jsonl(episode('late-1'), episode('late-2')));
  fire(root);
  while (passes.length === 0 && Date.now() - started < 2000) await sleep(10);
  assert.equal(readIndexSummary(root).summary.episodes, 5);
  assert.ok(Date.now() - started < 2000, 'visible within 2 s');
  tail.dispose();
});
