import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serveDemoAgentsCommand } from '../../../src/cli/commands/serveDemoAgentsCommand';
import { openAiChatClient } from '../../../src/engine/evaluators/replay/openAiChatClient';
import { demoSystemPrompts } from '../../../src/demo/demoPrompts';
import { teamEpisodes } from '../../../src/demo/teamEpisodes';
// @ts-expect-error: a plain ES module of the scripts folder, without types
import { writeReplaySetting } from '../../../scripts/demoModels.mjs';
import { eventually } from '../engine/replay/replayTestKit';

test('serve-demo-agents serves the demo’s planner on loopback and prints the evaluator setting to use', async () => {
  const out: string[] = [];
  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const command = serveDemoAgentsCommand({}, { out: (l) => out.push(l), err: () => undefined }, stopped);
  await eventually(() => out.length >= 3);
  const url = /served at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out[0] ?? '')?.[1];
  assert.ok(url, out[0]);
  assert.equal(out[1], `  CLI:     credit-lens credit demo-run --method loo --no-logged --evaluator replay:url=${url}`);
  assert.equal(out[2], `  VS Code: "creditLens.evaluator.replay": { "url": "${url}" }`);
  const client = openAiChatClient({ baseUrl: url });
  try {
    const reply = await client.complete({
      model: 'qwen2.5-1.5b-lora-planner',
      messages: [
        { role: 'system', content: demoSystemPrompts.planner },
        { role: 'user', content: [...teamEpisodes({ episodes: 1 })][0]?.prompt ?? '' },
      ],
      sampling: { seed: 1 },
    });
    assert.match(reply.content, /^Plan:\n1\. /);
  } finally {
    await client.close();
  }
  stop();
  assert.equal(await command, 0);
});

test('npm start’s opt-in writes the replay setting into its code-server settings, and removes it without the opt-in', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'credit-lens-settings-')), 'User', 'settings.json');
  writeReplaySetting(file, 'http://127.0.0.1:8100/v1');
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
    'creditLens.evaluator.replay': { url: 'http://127.0.0.1:8100/v1' },
  });
  writeFileSync(file, JSON.stringify({ 'editor.fontSize': 14, 'creditLens.evaluator.replay': { url: 'x' } }));
  writeReplaySetting(file, undefined);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { 'editor.fontSize': 14 });
  writeFileSync(file, '{ // a comment: the user’s file\n}');
  writeReplaySetting(file, 'http://127.0.0.1:8100/v1');
  assert.equal(readFileSync(file, 'utf8'), '{ // a comment: the user’s file\n}');
});
