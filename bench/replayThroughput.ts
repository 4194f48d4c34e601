import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { ChatRequest } from '../src/core/chat';
import { chatRequestBody } from '../src/engine/evaluators/replay/chatWire';
import { tokensOf } from '../src/engine/evaluators/replay/localChatProtocol';
import { startLocalChatServer } from '../src/engine/evaluators/replay/localChatServer';
import { openAiChatClient } from '../src/engine/evaluators/replay/openAiChatClient';

// `node dist/bench.js replay-throughput [--requests N]`: completions per second through
// openAiChatClient against the local OpenAI-compatible server (run in a child process, so the
// server's work is not on the client's event loop), at concurrency 1, 8 and 32, JSON and SSE; the
// peer is a bare `fetch` loop sending the same bodies at the same concurrency and reading the reply
// as text (no semaphore, deadline, retries, breaker or parsing). Client and bare runs alternate,
// `repeats` times per setting; each side's median run (by calls/s) is reported, with the CPU time
// this process spent per call (the client's own cost, which a busy machine blurs less).

/** The simulated model: this fixed answer after this latency, whatever the request. */
export const simulatedLatencyMs = 20;
export const fixedAnswer =
  'The planner split the task into two steps, so I add 17 and 25 first and then check the sum again against ' +
  'the original numbers before I report it to the verifier: the final answer is 42, and it holds.';

const concurrencies = [1, 8, 32] as const;

/** One measured setting: calls per second and latency percentiles of the client and the bare loop. */
export interface ThroughputRow {
  readonly mode: 'JSON' | 'SSE';
  readonly concurrency: number;
  readonly requests: number;
  readonly client: RunFigures;
  readonly bare: RunFigures;
}

interface RunFigures {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** CPU time (user + system) of this process per call, in µs. */
  readonly cpuUsPerCall: number;
}

/** `replay-server`: serves the simulated model on a free loopback port and prints its URL. */
export async function serveSimulatedModel(): Promise<void> {
  if (tokensOf(fixedAnswer).length !== 40)
    throw new Error(`the fixed answer has ${tokensOf(fixedAnswer).length} tokens, not 40`);
  const server = await startLocalChatServer({
    maxLogged: 0,
    reply: () => new Promise((resolve) => setTimeout(() => resolve(fixedAnswer), simulatedLatencyMs)),
  });
  process.stdout.write(`${server.url}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => void server.close());
}

/** Runs every setting against a server child process; `self` is dist/bench.js. */
export async function replayThroughput(self: string, requests: number, repeats = 3): Promise<ThroughputRow[]> {
  const { child, url } = await startServerProcess(self);
  try {
    const rows: ThroughputRow[] = [];
    for (const stream of [false, true]) {
      await clientRun(url, stream, 8, 64); // warm-up: connections, JIT
      await bareRun(url, stream, 8, 64);
      for (const concurrency of concurrencies) {
        const client: RunFigures[] = [];
        const bare: RunFigures[] = [];
        for (let r = 0; r < repeats; r++) {
          client.push(await clientRun(url, stream, concurrency, requests));
          bare.push(await bareRun(url, stream, concurrency, requests));
        }
        rows.push({
          mode: stream ? 'SSE' : 'JSON',
          concurrency,
          requests,
          client: medianRun(client),
          bare: medianRun(bare),
        });
      }
    }
    return rows;
  } finally {
    child.stdin.end();
    child.kill();
  }
}

async function startServerProcess(
  self: string,
): Promise<{ child: ChildProcessByStdio<Writable, Readable, null>; url: string }> {
  const child = spawn(process.execPath, [self, 'replay-server'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server process exited with code ${String(code)}`)));
  });
  return { child, url };
}

function benchRequest(i: number): ChatRequest {
  return {
    model: 'credit-lens-demo',
    messages: [
      { role: 'system', content: 'You are the solver of a planner-solver-verifier team.' },
      { role: 'user', content: `Episode ${i}: add 17 and 25, then report the sum.`, name: 'planner' },
    ],
    sampling: { temperature: 0, maxTokens: 64, seed: i },
  };
}

async function clientRun(url: string, stream: boolean, concurrency: number, requests: number): Promise<RunFigures> {
  const client = openAiChatClient({ baseUrl: url, stream, concurrency });
  try {
    const figures = await driven(concurrency, requests, async (i) => {
      const answer = await client.complete(benchRequest(i));
      if (answer.content !== fixedAnswer) throw new Error(`unexpected answer: ${answer.content}`);
    });
    const stats = client.stats();
    if (stats.failedCalls > 0 || stats.retries > 0)
      throw new Error(`${stats.failedCalls} failed calls, ${stats.retries} retries`);
    return figures;
  } finally {
    await client.close();
  }
}

function bareRun(url: string, stream: boolean, concurrency: number, requests: number): Promise<RunFigures> {
  const headers = { 'content-type': 'application/json' };
  return driven(concurrency, requests, async (i) => {
    const body = JSON.stringify(chatRequestBody(benchRequest(i), stream));
    const response = await fetch(`${url}/chat/completions`, { method: 'POST', headers, body });
    await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  });
}

/** `concurrency` workers take request indexes in order until `requests` are done; per-call latency and throughput. */
async function driven(concurrency: number, requests: number, call: (i: number) => Promise<void>): Promise<RunFigures> {
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async (): Promise<void> => {
    for (let i = next++; i < requests; i = next++) {
      const callStarted = performance.now();
      await call(i);
      latencies.push(performance.now() - callStarted);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    callsPerSecond: requests / seconds,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    cpuUsPerCall: (user + system) / requests,
  };
}

function medianRun(runs: readonly RunFigures[]): RunFigures {
  const sorted = [...runs].sort((a, b) => a.callsPerSecond - b.callsPerSecond);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) throw new Error('no runs');
  return median;
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** The Markdown table of BENCHMARKS.md's "Replay client throughput" section. */
export function formatThroughput(rows: readonly ThroughputRow[]): string {
  const header = [
    `Replay client throughput: ${rows[0]?.requests ?? 0} completions per run, a fixed 40-token answer after ${simulatedLatencyMs} ms (ideal: concurrency / ${simulatedLatencyMs} ms), median of the runs:`,
    '',
    '| mode | concurrency | ideal calls/s | client calls/s | bare fetch calls/s | client / bare | client p50 ms | bare p50 ms | client p95 ms | bare p95 ms | client CPU µs/call | bare CPU µs/call |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const lines = rows.map((r) =>
    [
      r.mode,
      r.concurrency,
      Math.round((r.concurrency * 1000) / simulatedLatencyMs),
      r.client.callsPerSecond.toFixed(0),
      r.bare.callsPerSecond.toFixed(0),
      `${((r.client.callsPerSecond / r.bare.callsPerSecond) * 100).toFixed(0)}%`,
      r.client.p50Ms.toFixed(1),
      r.bare.p50Ms.toFixed(1),
      r.client.p95Ms.toFixed(1),
      r.bare.p95Ms.toFixed(1),
      r.client.cpuUsPerCall.toFixed(0),
      r.bare.cpuUsPerCall.toFixed(0),
    ].join(' | '),
  );
  return [...header, ...lines.map((line) => `| ${line} |`)].join('\n');
}
