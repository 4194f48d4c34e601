// `credit-lens mcp`, driven by the MCP SDK's own client over stdio against the built CLI on the audited demo.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath as cli } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';
import { sharedDemo } from '../engine/tools/toolDemo';

const clients: Client[] = [];

before(() => {
  assert.ok(existsSync(cli), 'dist/cli.js missing: run `node esbuild.mjs` first');
});
after(async () => {
  for (const client of clients) await client.close();
});

async function connect(...extra: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', await sharedDemo(), ...extra],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'credit-lens-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Json = Record<string, unknown>;

/** The tool's JSON result, asserting it is not an error. */
async function call(client: Client, name: string, args: Json): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
  assert.notEqual(result.isError, true, text);
  return JSON.parse(text) as Json;
}

/** The error text of a refused call. */
async function refused(client: Client, name: string, args: Json): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} should refuse ${JSON.stringify(args)}`);
  return (result.content as { text: string }[])[0]?.text ?? '';
}

test('credit-lens mcp lists the five read-only tools with their JSON schemas and read-only hints', async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ['list_runs', 'get_agent_credit', 'find_episodes', 'read_episode', 'explain_flag'],
  );
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.annotations?.readOnlyHint, true);
  }
  assert.deepEqual(tools.find((t) => t.name === 'explain_flag')?.inputSchema.required, ['flagId']);
  assert.match(await refused(client, 'recompute_credit', {}), /--allow-compute/);
});

test('over MCP: which agent free-rides, from which step, and one of its episodes', async () => {
  const client = await connect();
  const runs = await call(client, 'list_runs', {});
  const team = (runs['runs'] as Json[]).find((r) => r['run'] === 'planner-solver-verifier');
  const flag = ((team?.['audit'] as Json)['flags'] as Json[]).find((f) => f['kind'] === 'free-rider');
  assert.equal(flag?.['agent'], 'verifier');
  const explained = await call(client, 'explain_flag', { flagId: flag?.['flagId'] });
  assert.deepEqual(explained['steps'], { from: 25, to: 40 });
  const found = await call(client, 'find_episodes', {
    run: 'planner-solver-verifier',
    flagId: flag?.['flagId'],
    limit: 1,
  });
  const [episode] = found['episodes'] as Json[];
  assert.ok(Number(episode?.['step']) >= 25);
  const read = await call(client, 'read_episode', { episodeId: episode?.['episodeId'] });
  const verifier = (read['agents'] as Json[]).find((a) => a['agent'] === 'verifier');
  assert.equal((verifier?.['credit'] as Json)['source'], 'logged');
  assert.ok(((read['messages'] as Json)['items'] as Json[]).some((m) => m['agent'] === 'verifier'));
  assert.match(
    await refused(client, 'get_agent_credit', { agent: 'verifier', limit: 500 }),
    /"limit" must be at most 50/,
  );
});

test('over MCP: paths outside the run folder are refused (../, absolute, a symlink pointing out)', async () => {
  const root = await sharedDemo();
  const outside = tempFolder();
  mkdirSync(join(outside, 'rollouts'));
  writeFileSync(join(outside, 'rollouts', 'secret.jsonl'), '{"id":"secret"}\n');
  const link = join(root, 'linked-out');
  if (!existsSync(link)) symlinkSync(outside, link);
  const client = await connect();
  for (const file of ['../secret.jsonl', join(outside, 'rollouts', 'secret.jsonl'), '/etc/passwd'])
    assert.match(await refused(client, 'read_episode', { file, line: 1 }), /outside the run folder/);
  assert.match(
    await refused(client, 'read_episode', { file: 'linked-out/rollouts/secret.jsonl', line: 1 }),
    /symbolic link/,
  );
  assert.match(await refused(client, 'list_runs', { folder: 'linked-out' }), /symbolic link/);
  assert.match(await refused(client, 'list_runs', { folder: '../' }), /outside the run folder/);
});

test('credit-lens mcp --allow-compute adds recompute_credit, which stores credit get_agent_credit then reads', async () => {
  const client = await connect('--allow-compute');
  const { tools } = await client.listTools();
  const compute = tools.find((t) => t.name === 'recompute_credit');
  assert.equal(compute?.annotations?.readOnlyHint, false);
  const done = await call(client, 'recompute_credit', {
    run: 'routed-experts',
    method: 'routing',
    stepFrom: 1,
    stepTo: 2,
  });
  const [run] = done['runs'] as Json[];
  assert.equal(run?.['run'], 'routed-experts');
  assert.ok(Number(run?.['computed']) > 0);
  const credit = await call(client, 'get_agent_credit', {
    run: 'routed-experts',
    agent: 'careful',
    method: 'routing',
    stepFrom: 1,
    stepTo: 2,
  });
  assert.equal(credit['status'], 'computed');
  assert.ok((credit['windows'] as Json[]).every((w) => typeof w['source'] === 'string' && w['episodes'] !== 0));
});

test('credit-lens mcp on a folder without an index exits 1 with how to build one', async () => {
  const { runCli } = await import('../../builders/cliRunner');
  const result = runCli('mcp', tempFolder());
  assert.equal(result.status, 1);
  assert.match(result.stderr, /has no Credit Lens index yet: run `credit-lens index/);
});
