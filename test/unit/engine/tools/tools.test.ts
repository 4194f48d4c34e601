import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathInFolder } from '../../../../src/engine/tools/pathScope';
import { validateInput } from '../../../../src/engine/tools/toolInput';
import { availableTools, creditLensTools, invokeTool } from '../../../../src/engine/tools/toolSet';
import type { ToolIndex } from '../../../../src/engine/tools/toolIndex';
import { tempFolder } from '../../../builders/episodeBuilder';
import { openDatabase } from '../../../../src/store/database';
import { demoToolIndex, sharedDemo } from './toolDemo';

let opened: ToolIndex | undefined;
async function index(): Promise<ToolIndex> {
  opened ??= await demoToolIndex();
  return opened;
}
after(() => opened?.close());

type Json = Record<string, unknown> & { [key: string]: unknown };
async function call(name: string, input: unknown): Promise<Json> {
  const result = await invokeTool(creditLensTools, await index(), name, input);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}
async function refusal(name: string, input: unknown): Promise<string> {
  const result = await invokeTool(creditLensTools, await index(), name, input);
  assert.equal(result.ok, false, `${name} should refuse ${JSON.stringify(input)}`);
  return result.ok ? '' : result.error;
}

test('every tool has a snake_case name, a description and a closed object schema whose defaults pass it', () => {
  const names = creditLensTools.map((t) => t.name);
  assert.deepEqual(names, [
    'list_runs',
    'get_agent_credit',
    'find_episodes',
    'read_episode',
    'explain_flag',
    'recompute_credit',
  ]);
  for (const tool of creditLensTools) {
    assert.match(tool.name, /^[a-z]+(_[a-z]+)+$/);
    assert.ok(tool.description.length > 60, tool.name);
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.inputSchema.additionalProperties, false);
    for (const key of tool.inputSchema.required ?? [])
      assert.ok(key in tool.inputSchema.properties, `${tool.name}.${key}`);
    for (const [key, p] of Object.entries(tool.inputSchema.properties)) {
      assert.ok(p.description.length > 5, `${tool.name}.${key} is described`);
      if (p.default !== undefined)
        assert.ok(validateInput(tool.inputSchema, { ...requiredOf(tool.name), [key]: p.default }).ok);
    }
  }
  assert.deepEqual(
    creditLensTools.filter((t) => t.mutating).map((t) => t.name),
    ['recompute_credit'],
  );
  assert.deepEqual(
    availableTools({ allowCompute: false }).map((t) => t.name),
    names.slice(0, 5),
  );
});

function requiredOf(name: string): Record<string, unknown> {
  return name === 'get_agent_credit' ? { agent: 'x' } : name === 'explain_flag' ? { flagId: 1 } : {};
}

test('validateInput refuses unknown keys, wrong types, bounds and enums, and fills defaults', () => {
  const schema = creditLensTools.find((t) => t.name === 'get_agent_credit')?.inputSchema;
  assert.ok(schema);
  assert.deepEqual(validateInput(schema, { agent: 'verifier' }), {
    ok: true,
    value: { agent: 'verifier', method: 'loo', window: 1, offset: 0, limit: 20 },
  });
  assert.match(
    String(!validateInput(schema, {}).ok && (validateInput(schema, {}) as { error: string }).error),
    /"agent" is required/,
  );
  const error = (input: unknown): string => {
    const r = validateInput(schema, input);
    return r.ok ? 'accepted' : r.error;
  };
  assert.match(error({ agent: 'v', bogus: 1 }), /unknown input "bogus"/);
  assert.match(error({ agent: 3 }), /"agent" must be a string, got 3/);
  assert.match(error({ agent: 'v', limit: 51 }), /"limit" must be at most 50/);
  assert.match(error({ agent: 'v', window: 1.5 }), /"window" must be an integer/);
  assert.match(error({ agent: 'v', method: 'magic' }), /"method" must be one of loo, shapley/);
  assert.match(error({ agent: 'v', stepFrom: Number.NaN }), /finite number/);
  assert.match(error([1]), /must be a JSON object/);
  assert.match(error('text'), /must be a JSON object/);
});

test('pathInFolder keeps paths inside the folder and refuses ../, absolute paths elsewhere and symlinks out', () => {
  const root = tempFolder();
  mkdirSync(join(root, 'runs', 'a'), { recursive: true });
  const outside = tempFolder();
  symlinkSync(outside, join(root, 'escape'));
  assert.deepEqual(pathInFolder(root, 'runs/a'), { ok: true, value: 'runs/a' });
  assert.deepEqual(pathInFolder(root, 'runs/../runs/a/new.jsonl'), { ok: true, value: 'runs/a/new.jsonl' });
  assert.deepEqual(pathInFolder(root, join(root, 'runs')), { ok: true, value: 'runs' });
  assert.deepEqual(pathInFolder(root, '.'), { ok: true, value: '' });
  for (const bad of ['../x', 'runs/../../x', '/etc/passwd', outside])
    assert.match(
      pathInFolder(root, bad).ok ? 'accepted' : (pathInFolder(root, bad) as { error: string }).error,
      /outside the run folder/,
    );
  for (const bad of ['escape', 'escape/secret.jsonl'])
    assert.match(
      pathInFolder(root, bad).ok ? 'accepted' : (pathInFolder(root, bad) as { error: string }).error,
      /symbolic link/,
    );
});

test('the demo question through the tools: the verifier free-rides from step 25, and one of its episodes reads back', async () => {
  const runs = await call('list_runs', {});
  // The demo's three runs: shared-reward training, its credit-signal twin and the routed experts.
  assert.equal(runs['total'], 3);
  const team = (runs['runs'] as Json[]).find((r) => r['run'] === 'planner-solver-verifier');
  const twin = (runs['runs'] as Json[]).find((r) => r['run'] === 'planner-solver-verifier-credit');
  assert.ok(twin?.['audit'], 'the credit-signal run is audited too');
  const twinFlags = ((twin['audit'] as Json)['flags'] ?? []) as Json[];
  assert.ok(
    !twinFlags.some((f) => f['kind'] === 'free-rider'),
    'no free rider when each agent is trained on its own contribution',
  );
  const flags = (team?.['audit'] as Json)['flags'] as Json[];
  const freeRider = flags.find((f) => f['kind'] === 'free-rider');
  assert.deepEqual([freeRider?.['agent'], freeRider?.['steps']], ['verifier', { from: 25, to: 40 }]);
  const explained = await call('explain_flag', { flagId: freeRider?.['flagId'] });
  assert.equal(explained['verdict'], 'verifier is idle while sharing a reward the team earns');
  assert.equal(explained['where'], 'steps 25–40');
  const location = explained['location'] as Json;
  assert.match(String(location['file']), /^planner-solver-verifier\/rollouts\/step_00\d\d\.jsonl$/);
  assert.ok(
    (explained['evidence'] as Json[]).some((row) => row['label'] === 'windows' && row['value'] === '4 windows'),
  );
  const found = await call('find_episodes', {
    run: 'planner-solver-verifier',
    flagId: freeRider?.['flagId'],
    limit: 3,
  });
  // 16 steps × 8 groups × 4 rollouts.
  assert.equal(found['total'], 512);
  assert.equal(found['nextOffset'], 3);
  const episodes = found['episodes'] as Json[];
  assert.equal(episodes.length, 3);
  assert.ok(episodes.every((e) => Number(e['step']) >= 25 && Number(e['step']) <= 40));
  const read = await call('read_episode', { episodeId: episodes[0]?.['episodeId'], maxChars: 40 });
  assert.equal(read['externalId'], episodes[0]?.['externalId']);
  const verifier = (read['agents'] as Json[]).find((a) => a['agent'] === 'verifier');
  assert.deepEqual(verifier?.['credit'], { value: 0, ci95: null, status: 'exact', source: 'logged' });
  const messages = read['messages'] as Json;
  const items = messages['items'] as Json[];
  assert.equal(messages['total'], items.length);
  assert.ok(items.some((m) => m['agent'] === 'verifier'));
  assert.ok(items.every((m) => String(m['text']).length <= 40 && typeof m['chars'] === 'number'));
  assert.ok(items.some((m) => m['truncated'] === true && Number(m['chars']) > 40));
});

test('read_episode finds the episode at a flag location, pages messages and refuses paths outside the folder', async () => {
  const first = await call('read_episode', {
    file: 'planner-solver-verifier/rollouts/step_0025.jsonl',
    line: 1,
    messageLimit: 1,
  });
  assert.equal(first['step'], 25);
  const messages = first['messages'] as Json;
  assert.equal((messages['items'] as Json[]).length, 1);
  assert.equal(messages['nextOffset'], 1);
  const second = await call('read_episode', { episodeId: first['episodeId'], messageOffset: 1, messageLimit: 1 });
  assert.equal(((second['messages'] as Json)['items'] as Json[])[0]?.['seq'], 1);
  assert.match(await refusal('read_episode', { file: '../outside.jsonl', line: 1 }), /outside the run folder/);
  assert.match(await refusal('read_episode', { file: '/etc/passwd', line: 1 }), /outside the run folder/);
  assert.match(
    await refusal('read_episode', { file: 'planner-solver-verifier/rollouts/step_0025.jsonl' }),
    /"line" is required/,
  );
  assert.match(await refusal('read_episode', {}), /give "episodeId", "externalId" or "file"/);
  assert.match(await refusal('read_episode', { episodeId: 10 ** 9 }), /not in the index/);
  assert.match(await refusal('list_runs', { folder: '../..' }), /outside the run folder/);
});

test('get_agent_credit gives per-window means with shares and provenance that match hand sums of the stored rows', async () => {
  const perStep = await call('get_agent_credit', {
    run: 'planner-solver-verifier',
    agent: 'verifier',
    stepFrom: 37,
    stepTo: 40,
  });
  const steps = perStep['windows'] as Json[];
  assert.deepEqual(
    steps.map((w) => [w['from'], w['to'], w['episodes']]),
    [37, 38, 39, 40].map((s) => [s, s, 32]),
  );
  const windowed = await call('get_agent_credit', {
    run: 'planner-solver-verifier',
    agent: 'verifier',
    stepFrom: 37,
    stepTo: 40,
    window: 4,
  });
  const [whole] = windowed['windows'] as Json[];
  // The mean of four equal-sized steps is the mean of their means.
  const mean = steps.reduce((s, w) => s + Number(w['mean']), 0) / 4;
  assert.ok(Math.abs(Number(whole?.['mean']) - mean) < 1e-12);
  assert.equal(whole?.['episodes'], 128);
  assert.equal(whole?.['source'], 'logged');
  assert.equal(whole?.['status'], 'exact');
  const early = await call('get_agent_credit', {
    run: 'planner-solver-verifier',
    agent: 'solver',
    stepFrom: 1,
    stepTo: 4,
    window: 4,
  });
  const share = Number((early['windows'] as Json[])[0]?.['share']);
  assert.ok(share > 0 && share <= 1);
  assert.match(
    await refusal('get_agent_credit', { run: 'planner-solver-verifier', agent: 'ghost' }),
    /no agent "ghost"/,
  );
  assert.match(await refusal('get_agent_credit', { agent: 'verifier' }), /give "run"/);
  const none = await call('get_agent_credit', { run: 'planner-solver-verifier', agent: 'verifier', method: 'owen' });
  assert.equal(none['status'], 'not-computed');
  assert.match(String(none['remedy']), /--method owen/);
});

test('find_episodes filters by reward and full-text search, reports bad queries, and flaggedAgent resolves one window', async () => {
  const failed = await call('find_episodes', { run: 'planner-solver-verifier', rewardMax: 0, limit: 50 });
  assert.ok((failed['episodes'] as Json[]).every((e) => e['reward'] === 0));
  const byAgent = await call('find_episodes', {
    run: 'planner-solver-verifier',
    flaggedAgent: 'verifier',
    flagKind: 'free-rider',
    limit: 1,
  });
  assert.deepEqual(byAgent['filter'], { stepFrom: 25, stepTo: 40, agent: 'verifier' });
  assert.match(
    await refusal('find_episodes', { run: 'planner-solver-verifier', flaggedAgent: 'planner' }),
    /planner has no/,
  );
  const searched = await call('find_episodes', { run: 'planner-solver-verifier', search: 'Agreed', limit: 1 });
  assert.ok(Number(searched['total']) > 0);
  assert.equal(searched['searchIncomplete'], undefined, 'the demo is fully searchable');
  assert.match(
    await refusal('find_episodes', { run: 'planner-solver-verifier', search: '"unclosed' }),
    /cannot search/,
  );
  assert.match(await refusal('find_episodes', { run: 'nope' }), /no run "nope"/);
});

test('find_episodes says how many episodes its search cannot match while search is still being built', async () => {
  const root = await sharedDemo();
  const writer = openDatabase(join(root, '.credit-lens', 'index.sqlite'));
  writer.exec('INSERT INTO episode_unsearched (episode_id) SELECT episode_id FROM episode ORDER BY episode_id LIMIT 3');
  try {
    const searched = await call('find_episodes', { run: 'planner-solver-verifier', search: 'Agreed', limit: 1 });
    assert.match(
      String(searched['searchIncomplete']),
      /^3 episodes of this folder's index are not yet searchable .*their matches are missing$/,
    );
  } finally {
    writer.exec('DELETE FROM episode_unsearched');
    writer.close();
  }
});

test('invokeTool refuses tools not offered, and the compute tool is hidden from the read-only set', async () => {
  const readOnly = availableTools({ allowCompute: false });
  const result = await invokeTool(readOnly, await index(), 'recompute_credit', {});
  assert.deepEqual(result.ok ? '' : result.error.includes('--allow-compute'), true);
  const unknown = await invokeTool(readOnly, await index(), 'drop_tables', {});
  assert.match(unknown.ok ? '' : unknown.error, /no tool "drop_tables"/);
  const flag = await invokeTool(readOnly, await index(), 'explain_flag', { flagId: 999_999 });
  assert.match(flag.ok ? '' : flag.error, /no flag 999999/);
});
