import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Episode, Message } from '../../../../src/core/episode';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { IndexStore } from '../../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';

// A small indexed folder for the Episode and Dashboard view tests: run "team" (planner, solver,
// verifier; file team/a.jsonl) and run "solo" (one agent; solo/b.jsonl). Credit and flags are
// written by each test with the helpers below, so every test states the values it checks.

export const agents = ['planner', 'solver', 'verifier'] as const;
const roster = agents.map((name) => ({ name, kind: 'llm' as const }));

const say = (agent: string, content: string, extra: Partial<Message> = {}): Message => ({
  agent,
  role: 'assistant',
  content,
  ...extra,
});

/** A message longer than the panel's limit (70,000 characters, an emoji pair across the cut). */
export const longText = `${'x'.repeat(65_535)}😀${'y'.repeat(4_463)}`;

/** Team episodes in file order (line = index + 1). `t-none` has no step; `t-long` has the long message; `t3b` has no verifier. */
export const teamEpisodes: readonly Episode[] = [
  episode('t1a', {
    step: 1,
    group: 'g1',
    sample: 0,
    reward: 1,
    agents: roster,
    groundTruth: '4',
    messages: [
      say('planner', 'plan the sum alpha', { turn: 0, channel: 'speech', tokenCount: 4 }),
      say('planner', 'second plan', { tokens: ['sec', 'ond'], attribution: [0.25, 0.75], tokenCount: 2 }),
      say('solver', '2 + 2 = 4 #### 4', { tokens: ['2', '+'] }),
      say('verifier', 'looks right #### 4'),
    ],
    labels: [{ kind: 'mistake', agent: 'solver', message: 2, reason: 'off by one' }],
    counterfactuals: [{ intervention: 'remove', agents: ['verifier'], reward: 1 }],
    coalitions: [
      { agents: ['planner', 'solver'], value: 0.5, n: 4 },
      { agents: [], value: 0 },
    ],
    agentRewards: { planner: 0.2 },
    advantages: { solver: -0.5 },
  }),
  episode('t1b', {
    step: 1,
    group: 'g1',
    sample: 1,
    reward: 0,
    agents: roster,
    messages: [say('planner', 'beta plan'), say('solver', 'answer 5')],
  }),
  episode('t2a', {
    step: 2,
    group: 'g2',
    sample: 0,
    reward: 1,
    agents: roster,
    messages: [say('planner', 'gamma'), say('solver', 'six'), say('verifier', 'ok')],
  }),
  episode('t2b', {
    step: 2,
    group: 'g2',
    sample: 1,
    reward: 0.5,
    agents: roster,
    messages: [say('planner', 'delta'), say('solver', 'seven'), say('verifier', 'fine')],
  }),
  episode('t-none', {
    step: undefined,
    group: undefined,
    sample: undefined,
    reward: undefined,
    agents: roster,
    messages: [say('planner', 'nostep'), say('solver', 'x')],
  }),
  episode('t-long', {
    step: 3,
    group: 'g3',
    sample: 0,
    reward: 1,
    agents: roster,
    messages: [say('planner', longText), say('solver', 'short'), say('verifier', 'ok')],
  }),
  episode('t3b', {
    step: 3,
    group: 'g3',
    sample: 1,
    reward: 0,
    agents: roster.slice(0, 2),
    messages: [say('planner', 'epsilon'), say('solver', 'eight')],
  }),
];

export interface ViewFixture {
  readonly root: string;
  readonly store: IndexStore;
  readonly teamRunId: number;
  readonly soloRunId: number;
  /** Episode row id by external id. */
  readonly id: (externalId: string) => number;
  /** Agent id of a team agent. */
  readonly agentId: (name: string) => number;
}

/** Writes and indexes (full-text search included) the fixture folder. */
export async function viewFixture(): Promise<ViewFixture> {
  const root = tempFolder('credit-lens-views-');
  for (const [run, mechanism] of [
    ['team', 'pipeline'],
    ['solo', 'pipeline'],
  ] as const) {
    mkdirSync(join(root, run));
    writeFileSync(
      join(root, run, 'run.json'),
      JSON.stringify({ format: 'credit-lens', version: '1.0', name: run, mechanism }),
    );
  }
  writeFileSync(join(root, 'team', 'a.jsonl'), jsonl(...teamEpisodes));
  const solo = [{ name: 'alone', kind: 'llm' as const }];
  writeFileSync(
    join(root, 'solo', 'b.jsonl'),
    jsonl(episode('s1', { agents: solo, messages: [say('alone', 'alpha solo')], step: 1 })),
  );
  const { index } = await runIndexJob({ root });
  const store = IndexStore.open(index.path);
  const db = store.db;
  const runId = (name: string): number =>
    db.prepare<{ run_id: number }>('SELECT run_id FROM run WHERE name = ?').get(name)?.run_id ?? -1;
  const teamRunId = runId('team');
  return {
    root,
    store,
    teamRunId,
    soloRunId: runId('solo'),
    id: (externalId) =>
      db.prepare<{ episode_id: number }>('SELECT episode_id FROM episode WHERE external_id = ?').get(externalId)
        ?.episode_id ?? -1,
    agentId: (name) =>
      db.prepare<{ agent_id: number }>('SELECT agent_id FROM agent WHERE run_id = ? AND name = ?').get(teamRunId, name)
        ?.agent_id ?? -1,
  };
}

/** One stored credit row (agent-level unless `seq` is given). */
export interface CreditSeed {
  readonly episode: string;
  readonly agent: string;
  readonly value: number | null;
  readonly method?: string;
  readonly hash?: string;
  readonly at?: string;
  readonly seq?: number;
  readonly approximate?: boolean;
  readonly source?: string;
  readonly n?: number;
}

export function insertCredit(f: ViewFixture, rows: readonly CreditSeed[]): void {
  const stmt = f.store.db.prepare(`
    INSERT INTO credit (run_id, episode_id, scope_kind, scope_id, agent_id, message_seq, method, value, n, approximate, status, source, params_hash, computed_at)
    VALUES (?, ?, 'episode', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const r of rows) {
    const episodeId = f.id(r.episode);
    stmt.run(
      f.teamRunId,
      episodeId,
      String(episodeId),
      f.agentId(r.agent),
      r.seq ?? null,
      r.method ?? 'loo',
      r.value,
      r.n ?? null,
      r.approximate ? 1 : 0,
      r.approximate ? 'approximate' : 'exact',
      r.source ?? 'logged',
      r.hash ?? 'h1',
      r.at ?? '2026-01-01T00:00:00.000Z',
    );
  }
}

/** Agent-level rows of one episode, one value per team agent in roster order. */
export function agentCredit(
  episodeId: string,
  values: readonly (number | null)[],
  extra: Partial<CreditSeed> = {},
): CreditSeed[] {
  return agents.map((agent, i) => ({ episode: episodeId, agent, value: values[i] ?? null, ...extra }));
}

export function clearCredit(f: ViewFixture): void {
  f.store.db.exec('DELETE FROM credit; DELETE FROM credit_error; DELETE FROM evaluation; DELETE FROM flag');
}
