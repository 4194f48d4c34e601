import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../../src/cli/main';
import { alwaysFault } from '../../../src/engine/evaluators/replay/localChatFaults';
import { findIndexLocation } from '../../../src/engine/indexLocation';
import { cliPath } from '../../builders/cliRunner';
import { eventually } from '../engine/replay/replayTestKit';
import { echoRun, withAgents } from '../engine/replay/replayRunKit';

/** Runs the CLI in this process (so a local server here can answer it) and captures what it prints. */
async function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

interface EpisodeJson {
  id: string;
  reward: number;
  credit: { loo: Record<string, { value: number; status: string; source: string }> };
}

function looOf(stdout: string): EpisodeJson[] {
  return (JSON.parse(stdout) as { runs: { episodes: EpisodeJson[] }[] }).runs[0]?.episodes ?? [];
}

describe('credit-lens credit --evaluator replay:url=… on the done-when fixture', () => {
  test('without replay A is approximate and the audit draws no verdict on A; with replay LOO(A) = 1 on successes, LOO(B) = 0, exact, replayed; the audit flags B a free rider', async () => {
    const root = await echoRun();
    const plain = await cli('credit', root, '--method', 'loo', '--json');
    assert.equal(plain.status, 0, plain.stderr);
    assert.ok(looOf(plain.stdout).every((e) => e.credit.loo['A']?.status === 'approximate'));
    const plainAudit = await cli('audit', root);
    assert.match(
      plainAudit.stdout,
      /not reached: idle, free-rider, dominant and decoupling for A: its loo credit is approximate/,
    );
    await withAgents(async (server) => {
      const evaluator = `replay:url=${server.url}`;
      const replayed = await cli('credit', root, '--method', 'loo', '--evaluator', evaluator, '--json');
      assert.equal(replayed.status, 0, replayed.stderr);
      const episodes = looOf(replayed.stdout);
      assert.equal(episodes.length, 120);
      for (const e of episodes) {
        assert.equal(e.credit.loo['A']?.value, e.reward, e.id);
        assert.equal(e.credit.loo['B']?.value, 0, e.id);
        for (const agent of ['A', 'B']) {
          assert.equal(e.credit.loo[agent]?.status, 'exact', e.id);
          assert.match(e.credit.loo[agent]?.source ?? '', /replayed/, e.id);
        }
      }
      assert.equal(episodes.filter((e) => e.credit.loo['A']?.value === 1).length, 108);
      const run = (JSON.parse(replayed.stdout) as { runs: { usage: { calls: number }; estimate: { calls: number } }[] })
        .runs[0];
      assert.equal(run?.usage.calls, 120);
      assert.equal(run?.estimate.calls, 120);
      const audit = await cli('audit', root, '--evaluator', evaluator);
      assert.equal(audit.status, 0, audit.stderr);
      assert.match(
        audit.stdout,
        /free-rider: B is idle while sharing a reward the team earns \(steps 1–4, the whole run\)/,
      );
      assert.doesNotMatch(audit.stdout, /not reached: .* for A/);
      assert.equal(server.requests.length, 120); // the audit found every replayed value in the cache
    });
  });

  test('the estimate is printed before any call; --dry-run prints only the estimate and calls nothing', async () => {
    const root = await echoRun();
    await withAgents(async (server) => {
      const evaluator = `replay:url=${server.url}`;
      const dry = await cli('credit', root, '--method', 'loo', '--evaluator', evaluator, '--dry-run');
      assert.equal(dry.status, 0, dry.stderr);
      assert.equal(dry.stdout, 'replay estimate for two-agent-echo: 120 calls, 2,280 prompt and 240 completion tokens');
      const json = await cli('credit', root, '--method', 'prefix', '--evaluator', evaluator, '--dry-run', '--json');
      assert.deepEqual(JSON.parse(json.stdout).estimate, { calls: 360, promptTokens: 8760, completionTokens: 1200 });
      const budgeted = await cli(
        'credit',
        root,
        '--method',
        'loo',
        '--evaluator',
        evaluator,
        '--dry-run',
        '--budget',
        '40',
      );
      assert.match(budgeted.stdout, /120 calls.*; --budget 40 spends at most 40 calls$/);
      assert.equal(server.requests.length, 0);
      const ran = await cli('credit', root, '--method', 'loo', '--evaluator', evaluator);
      const lines = ran.stdout.split('\n');
      assert.match(lines[0] ?? '', /^replay estimate for two-agent-echo: 120 calls/);
      assert.match(
        ran.stdout,
        /model server: 120 calls \(estimated 120 calls\), [\d,]+ prompt and [\d,]+ completion tokens, 0 retries, 0 failed calls, 0 failed episodes/,
      );
      const again = await cli('credit', root, '--method', 'loo', '--evaluator', evaluator);
      assert.match(again.stdout, /^replay estimate for two-agent-echo: 0 calls, 0 prompt and 0 completion tokens/);
      assert.equal(server.requests.length, 120);
    });
  });

  test('per-message replay: prefix credit from replayed prefixes locates the first error of each failed episode', async () => {
    const root = await echoRun();
    await withAgents(async (server) => {
      const result = await cli(
        'credit',
        root,
        '--method',
        'prefix',
        '--evaluator',
        `replay:url=${server.url}`,
        '--json',
      );
      assert.equal(result.status, 0, result.stderr);
      const { firstErrors } = JSON.parse(result.stdout) as {
        firstErrors: { episode: string; message: number; agent: string }[];
      };
      // A's slipped answer (message 0) loses the 12 failed episodes: regenerated from the prompt, they succeed.
      assert.equal(firstErrors.length, 12);
      for (const f of firstErrors) assert.deepEqual([f.message, f.agent], [0, 'A'], f.episode);
    });
  });

  test('bad replay options are usage errors naming the option', async () => {
    const root = await echoRun();
    const cases: [string, RegExp][] = [
      ['replay:model=x', /url=http:\/\/HOST:PORT\/v1 is required/],
      ['replay:url=http://127.0.0.1:1/v1,api_key=sk-x', /do not put the API key in the options/],
      ['replay:url=http://127.0.0.1:1/v1,samples=0', /samples must be a whole number/],
    ];
    for (const [evaluator, message] of cases) {
      const result = await cli('credit', root, '--method', 'loo', '--evaluator', evaluator);
      assert.equal(result.status, 2, evaluator);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /sk-x/);
    }
    const owen = await cli('credit', root, '--method', 'owen', '--evaluator', 'replay:url=http://127.0.0.1:1/v1');
    assert.equal(owen.status, 1);
    assert.match(owen.stderr, /a replay answers prefixes only .*: use --method prefix/);
  });
});

describe('the API key stays secret', () => {
  test('the server sees CREDIT_LENS_REPLAY_API_KEY as the bearer token; the index, the outputs and the logs never hold it', async () => {
    const key = 'sk-test-4f1c9e2d7a-never-stored';
    const root = await echoRun();
    const previous = process.env['CREDIT_LENS_REPLAY_API_KEY'];
    process.env['CREDIT_LENS_REPLAY_API_KEY'] = key;
    try {
      await withAgents(async (server) => {
        const evaluator = `replay:url=${server.url}`;
        const outputs = [
          await cli('credit', root, '--method', 'loo', '--evaluator', evaluator),
          await cli('credit', root, '--method', 'loo', '--evaluator', evaluator, '--json', '--no-logged'),
          await cli('credit', root, '--method', 'prefix', '--evaluator', evaluator, '--csv', '--messages'),
          await cli('audit', root, '--evaluator', evaluator, '--json'),
          await cli('export', root, '--otlp', '--method', 'loo,prefix'),
        ];
        assert.ok(server.requests.length > 0);
        assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${key}`));
        for (const o of outputs) {
          assert.equal(o.status, 0, o.stderr);
          assert.ok(!o.stdout.includes(key) && !o.stderr.includes(key));
        }
        const index = findIndexLocation(root)?.path ?? '';
        const folder = join(index, '..');
        for (const file of readdirSync(folder))
          assert.ok(!readFileSync(join(folder, file)).includes(key), `${file} holds the key`);
      });
      // A failing server's error is reported without the key either.
      await withAgents(
        async (server) => {
          const failed = await cli('credit', root, '--method', 'loo', '--evaluator', `replay:url=${server.url},seed=3`);
          assert.match(failed.stderr, /HTTP 401/);
          assert.ok(!failed.stderr.includes(key) && !failed.stdout.includes(key));
        },
        { fault: alwaysFault({ kind: 'status', status: 401, body: JSON.stringify({ error: `bad key ${key}` }) }) },
      );
    } finally {
      if (previous === undefined) delete process.env['CREDIT_LENS_REPLAY_API_KEY'];
      else process.env['CREDIT_LENS_REPLAY_API_KEY'] = previous;
    }
  });
});

describe('Ctrl-C', () => {
  test('the first Ctrl-C aborts the calls in flight and exits 130 at once, storing no failure', async () => {
    const root = await echoRun();
    await withAgents(
      async (server) => {
        const child = spawn(
          process.execPath,
          [cliPath, 'credit', root, '--method', 'loo', '--evaluator', `replay:url=${server.url}`],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        const stderr: string[] = [];
        child.stderr.on('data', (chunk: Buffer) => stderr.push(String(chunk)));
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        await eventually(() => server.inFlight > 0, 20_000);
        const signalled = Date.now();
        child.kill('SIGINT');
        const code = await exited;
        assert.ok(Date.now() - signalled < 3000, `exited ${Date.now() - signalled} ms after Ctrl-C`);
        assert.equal(code, 130, stderr.join(''));
        assert.match(stderr.join(''), /cancelled; the episodes computed so far and every replayed value are stored/);
        await eventually(() => server.abandoned > 0 && server.inFlight === 0);
        const again = await cli('credit', root, '--method', 'loo', '--json');
        assert.equal(JSON.parse(again.stdout).runs[0].failed, 0);
      },
      { fault: alwaysFault({ kind: 'hang' }) },
    );
  });
});
