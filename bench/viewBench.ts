import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Episode, Message } from '../src/core/episode';
import { runAudit } from '../src/engine/audit/auditJob';
import { runCreditJob } from '../src/engine/credit/creditJob';
import { runIndexJob } from '../src/engine/indexJob';
import { DashboardViewService } from '../src/engine/views/dashboardViewService';
import { EpisodeViewService } from '../src/engine/views/episodeViewService';
import type { EpisodeQuery } from '../src/engine/views/viewTypes';
import { CreditRepository } from '../src/store/creditRepository';
import { IndexStore } from '../src/store/indexStore';

// `node dist/bench.js views`: the data services of the Episode and Run Dashboard panels. The large
// run (130,000 episodes) is indexed once into bench-data/views.index.sqlite with LOO credit from
// its logged counterfactuals and an audit's flags; two synthetic long episodes (10,000 and 100,000
// messages) are written and indexed in a temporary folder.

/** One timed call: the first (after opening the index) and the best of the repeats. */
export interface ViewTiming {
  readonly name: string;
  readonly firstMs: number;
  readonly bestMs: number;
  readonly note: string;
}

export interface ViewBenchResult {
  readonly setupMs: number;
  readonly dashboard: readonly ViewTiming[];
  readonly episodes: readonly ViewTiming[];
}

const context = { defaultMethod: 'loo', evaluator: { configured: true, description: 'bench', reason: null } } as const;

export async function viewBench(dir: string, dbPath: string): Promise<ViewBenchResult> {
  const started = performance.now();
  if (!existsSync(dbPath)) await prepareIndex(dir, dbPath);
  const setupMs = performance.now() - started;
  const dashboard = await dashboardTimings(dir, dbPath);
  dashboard.push(await recomputeOne(dir, dbPath));
  return { setupMs, dashboard, episodes: await longEpisodeTimings() };
}

async function prepareIndex(dir: string, dbPath: string): Promise<void> {
  process.stderr.write('indexing the large run for the view benchmark…\n');
  try {
    await runIndexJob({ root: dir, dbPath });
    await runAudit({ root: dir, dbPath, method: 'loo', readText: false });
  } catch (error) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
    throw error;
  }
}

/**
 * The run the views are measured on: the one with the most episodes. The bench folder is a root
 * run (holding only the dataset.json marker) with the generated run beside it, and timing the
 * empty root run measured nothing.
 */
export function runWithEpisodes<R extends { readonly episodes: number }>(runs: readonly R[], where: string): R {
  const run = [...runs].sort((a, b) => b.episodes - a.episodes)[0];
  if (!run || run.episodes === 0) throw new Error(`no run with episodes in ${where}`);
  return run;
}

export async function dashboardTimings(dir: string, dbPath: string): Promise<ViewTiming[]> {
  const store = IndexStore.open(dbPath);
  try {
    const service = new DashboardViewService(store.db, dir);
    const run = runWithEpisodes(service.runs(), dbPath);
    const page =
      (key: EpisodeQuery['sort']['key'], descending: boolean, filter: EpisodeQuery['filter'] = {}) =>
      () =>
        service.episodes({ runId: run.runId, filter, sort: { key, descending }, offset: 0, limit: 500 });
    const episodes = new EpisodeViewService(store.db, dir);
    const middle = page('step', false)().rows[250]?.episodeId ?? 1;
    return [
      timed(
        'runs()',
        () => service.runs(),
        (r) => `${String(r.length)} run, ${String(run.episodes)} episodes, ${String(run.flags)} flags`,
      ),
      timed(
        'overview(loo)',
        () => service.overview(run.runId, 'loo', 0.02),
        (o) => `${o.status}, ${String(o.steps.length)} steps`,
      ),
      timed(
        'overview(shared, derived)',
        () => service.overview(run.runId, 'shared', 0.02),
        (o) => o.status,
      ),
      timed('episodes() 500 by reward ↑', page('reward', false), (p) => `total ${String(p.total)}`),
      timed('episodes() 500 by reward ↓', page('reward', true), (p) => `total ${String(p.total)}`),
      timed('episodes() 500 by step', page('step', false), (p) => `total ${String(p.total)}`),
      timed('episodes() 500 by messages ↓', page('messages', true), (p) => `total ${String(p.total)}`),
      timed('episodes() 500 by flags ↓', page('flags', true), (p) => `total ${String(p.total)}`),
      timed(
        'episodes() flag any + reward ≥ 0.5',
        page('reward', true, { flag: 'any', rewardMin: 0.5 }),
        (p) => `total ${String(p.total)}`,
      ),
      timed(
        'episodes() search "subtract"',
        page('reward', true, { search: 'subtract' }),
        (p) => `total ${String(p.total)}`,
      ),
      timed(
        'adjacent(next)',
        () => episodes.adjacent(middle, 'next'),
        () => '',
      ),
      await timedAsync(
        'episode()+messages(0,200)+credit()',
        async () =>
          [
            episodes.episode(middle, context),
            await episodes.messages(middle, 0, 200),
            episodes.credit(middle, 'loo', true),
          ] as const,
        () => '',
      ),
    ];
  } finally {
    store.close();
  }
}

/** Recomputing one episode's LOO from the panel (the run's GRPO advantages are refreshed as well). */
async function recomputeOne(dir: string, dbPath: string): Promise<ViewTiming> {
  const store = IndexStore.open(dbPath);
  const id = store.db.prepare<{ id: number }>('SELECT max(episode_id) AS id FROM episode').get()?.id ?? 1;
  store.close();
  const t = performance.now();
  const result = await runCreditJob({ root: dir, dbPath, method: 'loo', episodes: [id] });
  const ms = performance.now() - t;
  return {
    name: 'runCreditJob(loo, 1 episode)',
    firstMs: ms,
    bestMs: ms,
    note: `${String(result.runs.reduce((sum, r) => sum + r.computed, 0))} computed`,
  };
}

/** A cold service (nothing decoded) on one synthetic episode per size: episode(), a 200-message window and credit(). */
export async function longEpisodeTimings(sizes: readonly number[] = [10_000, 100_000]): Promise<ViewTiming[]> {
  const root = join(tmpdir(), `credit-lens-view-bench-${String(process.pid)}`);
  mkdirSync(root, { recursive: true });
  try {
    writeFileSync(join(root, 'long.jsonl'), sizes.map((n) => `${JSON.stringify(longEpisode(n))}\n`).join(''));
    const { index } = await runIndexJob({ root, search: false });
    const store = IndexStore.open(index.path);
    try {
      const idOf = store.db.prepare<{ episode_id: number }>('SELECT episode_id FROM episode WHERE external_id = ?');
      const timings: ViewTiming[] = [];
      for (const n of sizes)
        timings.push(...(await longEpisodeTiming(store, root, idOf.get(`long-${String(n)}`)?.episode_id ?? -1, n)));
      return timings;
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function longEpisodeTiming(
  store: IndexStore,
  root: string,
  episodeId: number,
  messages: number,
): Promise<ViewTiming[]> {
  writeLongCredit(store, episodeId, messages);
  const size = `${(messages / 1000).toFixed(0)}k messages`;
  let service = new EpisodeViewService(store.db, root);
  const cold = await timedAsync(
    `${size}: episode()+messages(0,200)+credit(loo), cold`,
    async () => {
      service = new EpisodeViewService(store.db, root);
      return [
        service.episode(episodeId, context),
        await service.messages(episodeId, 0, 200),
        service.credit(episodeId, 'loo', true),
      ] as const;
    },
    ([e, w]) => `${String(e?.messageCount)} messages, window ${String(w.messages.length)}`,
  );
  return [
    cold,
    await timedAsync(
      `${size}: messages(mid, 200), decoded`,
      () => service.messages(episodeId, Math.floor(messages / 2), 200),
      (w) => `window ${String(w.messages.length)}`,
    ),
    timed(
      `${size}: credit(prefix), per-message rows`,
      () => service.credit(episodeId, 'prefix', true),
      (c) => `${c.messageCreditKind}, ${String(c.messageCredit.length)} values`,
    ),
    timed(
      `${size}: credit(owen), estimated per-message rows with intervals`,
      () => service.credit(episodeId, 'owen', true),
      (c) =>
        `${c.messageCreditKind}, ${String(c.messageCredit.length)} values, ${String(c.messageMargin?.length ?? 0)} margins`,
    ),
    timed(
      `${size}: timeline(), the swimlanes' reply`,
      () => service.timeline(episodeId),
      (t) => `${String(t.authors.length)} messages, ${(JSON.stringify(t).length / 1024).toFixed(0)} KB as JSON`,
    ),
  ];
}

/** Stored credit of the long episode: LOO per agent, exact prefix rows and estimated Owen rows per message. */
function writeLongCredit(store: IndexStore, episodeId: number, messages: number): void {
  const roster = store.db
    .prepare<{ agent_id: number; run_id: number }>(
      'SELECT ea.agent_id, e.run_id FROM episode_agent ea JOIN episode e USING (episode_id) WHERE episode_id = ? ORDER BY ordinal',
    )
    .all(episodeId);
  const runId = roster[0]?.run_id ?? 1;
  const row = (agentId: number, messageSeq: number | null, value: number) => ({
    episodeId,
    agentId,
    messageSeq,
    value,
    stderr: null,
    ciLow: null,
    ciHigh: null,
    n: null,
    status: 'exact' as const,
    source: 'logged',
    intervention: null,
    advantage: null,
  });
  const credit = new CreditRepository(store.db);
  credit.writeCredit(
    runId,
    { method: 'loo', params: {}, hash: 'bench' },
    roster.map((a, i) => row(a.agent_id, null, i / 10)),
    [],
  );
  credit.writeCredit(
    runId,
    { method: 'prefix', params: {}, hash: 'bench' },
    Array.from({ length: messages }, (_, seq) => row(roster[seq % roster.length]?.agent_id ?? 0, seq, 1 / messages)),
    [],
  );
  // Monte-Carlo Owen rows (issue 17): every message estimated, with its 95% interval.
  credit.writeCredit(
    runId,
    { method: 'owen', params: {}, hash: 'bench' },
    Array.from({ length: messages }, (_, seq) => {
      const value = Math.sin(seq) / messages;
      const half = (1 + (seq % 5)) / messages;
      const estimated = {
        ...row(roster[seq % roster.length]?.agent_id ?? 0, seq, value),
        status: 'estimated' as const,
      };
      return { ...estimated, stderr: half / 1.96, ciLow: value - half, ciHigh: value + half, n: 200 };
    }),
    [],
  );
}

function longEpisode(n: number): Episode {
  const agents = ['planner', 'solver', 'verifier'];
  const messages: Message[] = Array.from({ length: n }, (_, i) => ({
    agent: agents[i % 3] ?? 'planner',
    turn: Math.floor(i / 3),
    role: 'assistant',
    content: `Turn ${String(i)}: ${'we add the partial sums, check the units and carry the remainder to the next column. '.repeat(4)}`,
    tokenCount: 80,
  }));
  return {
    id: `long-${String(n)}`,
    step: 1,
    group: 'g',
    sample: 0,
    agents: agents.map((name) => ({ name, kind: 'llm' })),
    messages,
    reward: 1,
  };
}

async function timedAsync<T>(
  name: string,
  fn: () => Promise<T>,
  describe: (value: T) => string,
  repeats = 3,
): Promise<ViewTiming> {
  let first = 0;
  let best = Infinity;
  let value: T | undefined;
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    value = await fn();
    const ms = performance.now() - t;
    if (i === 0) first = ms;
    best = Math.min(best, ms);
  }
  return { name, firstMs: first, bestMs: best, note: describe(value as T) };
}

function timed<T>(name: string, fn: () => T, describe: (value: T) => string, repeats = 3): ViewTiming {
  let first = 0;
  let best = Infinity;
  let value: T | undefined;
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    value = fn();
    const ms = performance.now() - t;
    if (i === 0) first = ms;
    best = Math.min(best, ms);
  }
  return { name, firstMs: first, bestMs: best, note: describe(value as T) };
}

/** The timings as a Markdown table. */
export function formatViewBench(result: ViewBenchResult): string {
  return [
    `View data services (index setup ${(result.setupMs / 1000).toFixed(1)} s; first call after opening, best of 3):`,
    '',
    ...timingTable([...result.dashboard, ...result.episodes]),
  ].join('\n');
}

/** The Markdown table of view timings: call, first ms, best ms, note. */
export function timingTable(timings: readonly ViewTiming[]): string[] {
  return [
    '| call | first ms | best ms | |',
    '|---|---|---|---|',
    ...timings.map((t) => `| ${t.name} | ${t.firstMs.toFixed(1)} | ${t.bestMs.toFixed(1)} | ${t.note} |`),
  ];
}
