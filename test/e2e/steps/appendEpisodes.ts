import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Appends copies of the first `n` episodes of the run's last `rollouts/step_*.jsonl`, with new ids
 * (`<idPrefix>-<time>-<i>`), as a training job would; returns the file's name. Writes nothing else.
 */
export function appendCopiedEpisodes(runDir: string, n: number, idPrefix: string): string {
  const rollouts = join(runDir, 'rollouts');
  const last = readdirSync(rollouts)
    .filter((name) => /^step_\d+\.jsonl$/.test(name))
    .sort()
    .at(-1);
  assert.ok(last, 'a step file');
  const lines = readFileSync(join(rollouts, last), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, n);
  const stamp = Date.now();
  const copies = lines.map((line, i) => {
    const episode = JSON.parse(line) as Record<string, unknown>;
    episode['id'] = `${idPrefix}-${String(stamp)}-${String(i)}`;
    return `${JSON.stringify(episode)}\n`;
  });
  appendFileSync(join(rollouts, last), copies.join(''));
  return last;
}
