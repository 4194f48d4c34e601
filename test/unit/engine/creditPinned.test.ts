import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import type { Counterfactual, Episode, Message } from '../../../src/core/episode';
import { runCreditJob, type RunCreditResult } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { IndexStore } from '../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

/*
 * Pins the whole stored output of `loo` and exact `shapley` from logged values on a multi-episode
 * pipeline run against oracles computed here: values, status, sources, interventions, GRPO
 * advantages (verl), not-identifiable rows and the per-agent summary.
 */

const names = ['planner', 'solver', 'verifier'] as const;
type Name = (typeof names)[number];

/** One fixture episode: v(S) by member bitmask (bit i = names[i]) and how it was logged. */
interface Spec {
  readonly id: string;
  readonly step: number;
  readonly group: string;
  readonly v: readonly number[];
  /** Log the full coalition table (else only removals). */
  readonly coalitions: boolean;
  /** Each agent's removal: replayed flag, or 'none' (not logged), or 'replace' (a replace_text instead). */
  readonly removals: readonly (boolean | undefined | 'none' | 'replace')[];
  /** Two rounds of messages (P S V P S V) or one (P S V). */
  readonly rounds: 1 | 2;
}

const replaceValue = 0.125;

function specs(): Spec[] {
  const list: Spec[] = [];
  for (let k = 0; k < 16; k++) {
    // Deterministic, non-trivial games: v(S) in quarters, v(∅) = 0 or 0.25.
    const v = Array.from({ length: 8 }, (_, mask) =>
      mask === 0 ? (k % 3 === 0 ? 0.25 : 0) : ((mask * 5 + k * 3) % 5) / 4,
    );
    const flags: (boolean | undefined)[] = [true, undefined, false];
    list.push({
      id: `e${k}`,
      step: 1 + Math.floor(k / 4),
      group: `g${Math.floor(k / 4)}`,
      v,
      coalitions: k % 5 !== 4,
      removals: names.map((_, i) => flags[(i + k) % 3]),
      rounds: k % 2 === 0 ? 2 : 1,
    });
  }
  // Only a replace_text on the planner and removals of the others: loo names the intervention; no shapley.
  list.push({
    id: 'alt',
    step: 5,
    group: 'g4',
    v: [0, 0, 0.5, 0.5, 0, 0.5, 0.75, 1],
    coalitions: false,
    removals: ['replace', true, true],
    rounds: 1,
  });
  // No removal of the verifier and no coalitions: neither method is identifiable without an evaluator.
  list.push({
    id: 'gap',
    step: 5,
    group: 'g4',
    v: [0, 0, 0, 0, 0, 0, 0, 1],
    coalitions: false,
    removals: [true, true, 'none'],
    rounds: 1,
  });
  return list;
}

const full = 7;
const bitOf = (i: number): number => 1 << i;

function toEpisode(s: Spec): Episode {
  const one = names.map((agent, turn): Message => ({ agent, turn, role: 'assistant', content: `${agent} of ${s.id}` }));
  const messages =
    s.rounds === 1
      ? one
      : [...one, ...one.map((m) => ({ ...m, turn: (m.turn ?? 0) + 3, content: `${m.content} again` }))];
  const counterfactuals: Counterfactual[] = [];
  s.removals.forEach((r, i) => {
    if (r === 'none') return;
    if (r === 'replace')
      counterfactuals.push({
        intervention: 'replace_text',
        agents: [names[i] as Name],
        replacement: 'nothing',
        reward: replaceValue,
        replayed: true,
      });
    else
      counterfactuals.push({
        intervention: 'remove',
        agents: [names[i] as Name],
        reward: s.v[full & ~bitOf(i)] as number,
        ...(r === undefined ? {} : { replayed: r }),
      });
  });
  const coalitions = s.coalitions
    ? s.v.map((value, mask) => ({ agents: names.filter((_, i) => mask & bitOf(i)), value }))
    : undefined;
  return episode(s.id, {
    step: s.step,
    group: s.group,
    agents: names.map((name) => ({ name, kind: 'llm' as const })),
    messages,
    reward: s.v[full] as number,
    final: { answer: '1', agent: 'verifier' },
    counterfactuals,
    ...(coalitions ? { coalitions } : {}),
  });
}

/** True when removing agent i without a replay leaves a different episode than a replay would. */
function removalApproximate(s: Spec, i: number): boolean {
  if (s.removals[i] !== false) return false;
  const authors = s.rounds === 1 ? [0, 1, 2] : [0, 1, 2, 0, 1, 2];
  const lastPresent = authors.reduce((last, a, seq) => (a !== i ? seq : last), -1);
  return authors.some((a, seq) => a === i && seq < lastPresent);
}

interface Expected {
  readonly value: number;
  readonly status: string;
  readonly source: string;
  readonly intervention: string | null;
}

/** The oracle's leave-one-out rows of an episode, or undefined when not identifiable. */
function looOracle(s: Spec): Expected[] | undefined {
  if (s.removals.some((r, i) => r === 'none' && !s.coalitions && i >= 0)) return undefined;
  return names.map((_, i) => {
    const replaced = s.removals[i] === 'replace';
    const counterfactual = replaced ? replaceValue : (s.v[full & ~bitOf(i)] as number);
    return {
      value: (s.v[full] as number) - counterfactual,
      status: removalApproximate(s, i) ? 'approximate' : 'exact',
      source: 'logged',
      intervention: replaced ? 'replace_text' : 'remove',
    };
  });
}

/** The oracle's exact Shapley rows on 3 agents (closed form), or undefined without every coalition. */
function shapleyOracle(s: Spec): Expected[] | undefined {
  if (!s.coalitions) return undefined;
  const v = (mask: number): number => s.v[mask] as number;
  const approximate = names.some((_, i) => removalApproximate(s, i));
  return names.map((_, i) => {
    const others = [0, 1, 2].filter((j) => j !== i).map(bitOf);
    const [a = 0, b = 0] = others;
    const me = bitOf(i);
    // |S| = 0 and 2 weigh 1/3, |S| = 1 weighs 1/6.
    const value = (v(me) - v(0)) / 3 + (v(a | me) - v(a)) / 6 + (v(b | me) - v(b)) / 6 + (v(a | b | me) - v(a | b)) / 3;
    return { value, status: approximate ? 'approximate' : 'exact', source: 'logged', intervention: null };
  });
}

/** verl's GRPO advantage within each (group, agent): (x − mean)/(sample std + 1e-6); alone, x/(1 + 1e-6). */
function verlAdvantages(values: readonly number[]): number[] {
  const n = values.length;
  if (n === 1) return values.map((x) => x / (1 + 1e-6));
  const mean = values.reduce((x, y) => x + y, 0) / n;
  const sd = Math.sqrt(values.reduce((x, y) => x + (y - mean) ** 2, 0) / (n - 1));
  return values.map((x) => (sd === 0 ? 0 : (x - mean) / (sd + 1e-6)));
}

interface StoredRow {
  external_id: string;
  agent: string;
  value: number;
  status: string;
  source: string;
  intervention: string | null;
  advantage: number | null;
  approximate: number;
  message_seq: number | null;
  stderr: number | null;
  n: number | null;
  scope_kind: string;
  scope_id: string;
  episode_id: number;
}

let root = '';
const fixture = specs();

before(async () => {
  root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(...fixture.map(toEpisode)));
  writeFileSync(
    join(root, 'run.json'),
    JSON.stringify({ format: 'credit-lens', version: '1.0', name: 'team', mechanism: 'pipeline' }),
  );
  await runIndexJob({ root, search: false });
});

function storedRows(method: string): { rows: StoredRow[]; errors: { external_id: string; status: string }[] } {
  const store = IndexStore.open(join(root, '.credit-lens', 'index.sqlite'));
  try {
    const rows = store.db
      .prepare<StoredRow>(
        `SELECT e.external_id, a.name AS agent, c.value, c.status, c.source, c.intervention, c.advantage, c.approximate,
           c.message_seq, c.stderr, c.n, c.scope_kind, c.scope_id, c.episode_id
         FROM credit c JOIN episode e USING (episode_id) JOIN agent a ON a.agent_id = c.agent_id
         WHERE c.method = ? ORDER BY c.episode_id, c.agent_id`,
      )
      .all(method);
    const errors = store.db
      .prepare<{ external_id: string; status: string }>(
        'SELECT e.external_id, x.status FROM credit_error x JOIN episode e USING (episode_id) WHERE x.method = ? ORDER BY x.episode_id',
      )
      .all(method);
    return { rows, errors };
  } finally {
    store.close();
  }
}

function checkSummary(run: RunCreditResult | undefined, expected: Map<string, Expected[]>): void {
  assert.ok(run);
  assert.deepEqual(
    run.agents.map((a) => a.agent),
    [...names],
  );
  names.forEach((name, i) => {
    const summary = run.agents[i];
    assert.ok(summary);
    const points = fixture.flatMap((s) => {
      const row = expected.get(s.id)?.[i];
      return row ? [{ step: s.step, ...row }] : [];
    });
    const values = points.map((p) => p.value);
    const n = values.length;
    const mean = values.reduce((x, y) => x + y, 0) / n;
    const se = Math.sqrt(values.reduce((x, y) => x + (y - mean) ** 2, 0) / (n - 1)) / Math.sqrt(n);
    const lo = Math.min(...points.map((p) => p.step));
    const hi = Math.max(...points.map((p) => p.step));
    const quarterMean = (keep: (step: number) => boolean): number => {
      const kept = points.filter((p) => keep(p.step)).map((p) => p.value);
      return kept.reduce((x, y) => x + y, 0) / kept.length;
    };
    assert.equal(summary.episodes, n, name);
    assert.ok(Math.abs(summary.mean - mean) < 1e-12, `${name} mean`);
    assert.ok(Math.abs(summary.ci[0] - (mean - 1.959963984540054 * se)) < 1e-9, `${name} ci low`);
    assert.ok(Math.abs(summary.ci[1] - (mean + 1.959963984540054 * se)) < 1e-9, `${name} ci high`);
    assert.ok(Math.abs(summary.early - quarterMean((s) => s <= lo + (hi - lo) / 4)) < 1e-12, `${name} early`);
    assert.ok(Math.abs(summary.late - quarterMean((s) => s >= hi - (hi - lo) / 4)) < 1e-12, `${name} late`);
    const count = (status: string): number => points.filter((p) => p.status === status).length;
    assert.deepEqual(summary.status, {
      exact: count('exact'),
      estimated: count('estimated'),
      approximate: count('approximate'),
    });
  });
}

/** Runs `method` and checks every stored row, error and summary figure against `oracle`. */
async function checkMethod(method: 'loo' | 'shapley', oracle: (s: Spec) => Expected[] | undefined): Promise<void> {
  const result = await runCreditJob({ root, method, evaluator: { kind: 'none' } });
  const expected = new Map(fixture.flatMap((s) => (oracle(s) ? [[s.id, oracle(s) as Expected[]] as const] : [])));
  const unidentified = fixture.filter((s) => !expected.has(s.id)).map((s) => s.id);
  const statuses = new Set([...expected.values()].flat().map((e) => e.status));
  assert.deepEqual([...statuses].sort(), ['approximate', 'exact'], 'the fixture exercises both statuses');
  const run = result.runs[0];
  assert.equal(run?.computed, expected.size);
  assert.equal(run?.unidentified, unidentified.length);
  assert.deepEqual(
    run?.failures.map((f) => [f.episode, f.status]),
    unidentified.map((id) => [id, 'not-identifiable']),
  );
  assert.deepEqual(result.values, { logged: result.values.logged, cached: 0, evaluated: 0 });

  const { rows, errors } = storedRows(method);
  assert.deepEqual(
    errors,
    unidentified.map((id) => ({ external_id: id, status: 'not-identifiable' })),
  );
  assert.equal(rows.length, expected.size * names.length);
  const advantages = new Map<string, number>();
  for (const group of new Set(fixture.map((s) => s.group)))
    names.forEach((_, i) => {
      const members = fixture.filter((s) => s.group === group && expected.has(s.id));
      const values = members.map((s) => expected.get(s.id)?.[i]?.value as number);
      verlAdvantages(values).forEach((a, k) => advantages.set(`${members[k]?.id}/${i}`, a));
    });
  for (const row of rows) {
    const i = names.indexOf(row.agent as Name);
    const want = expected.get(row.external_id)?.[i];
    assert.ok(want, `unexpected row ${row.external_id}/${row.agent}`);
    const where = `${method} ${row.external_id}/${row.agent}`;
    if (method === 'loo') assert.equal(row.value, want.value, where);
    else assert.ok(Math.abs(row.value - want.value) < 1e-12, `${where}: ${row.value} vs ${want.value}`);
    assert.deepEqual(
      [row.status, row.source, row.intervention, row.approximate],
      [want.status, want.source, want.intervention, want.status === 'approximate' ? 1 : 0],
      where,
    );
    assert.deepEqual(
      [row.message_seq, row.stderr, row.n, row.scope_kind, row.scope_id],
      [null, null, null, 'episode', String(row.episode_id)],
    );
    const advantage = advantages.get(`${row.external_id}/${i}`) as number;
    assert.ok(Math.abs((row.advantage as number) - advantage) < 1e-9, `${where} advantage ${row.advantage}`);
  }
  checkSummary(run, expected);
}

test('loo from logged values: every stored value, provenance, advantage, not-identifiable row and summary figure', async () => {
  await checkMethod('loo', looOracle);
});

test('exact shapley on 3 agents from logged coalitions: values, conservation, provenance, advantages and summary', async () => {
  await checkMethod('shapley', shapleyOracle);
  const { rows } = storedRows('shapley');
  for (const s of fixture.filter((x) => x.coalitions)) {
    const sum = rows.filter((r) => r.external_id === s.id).reduce((x, r) => x + r.value, 0);
    assert.ok(Math.abs(sum - ((s.v[full] as number) - (s.v[0] as number))) < 1e-12, `${s.id}: Σφ = ${sum}`);
  }
});

test('a rerun replaces the stored rows: the same rows, no duplicates, the errors kept once', async () => {
  await checkMethod('loo', looOracle);
  await checkMethod('loo', looOracle);
});
