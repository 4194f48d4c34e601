import type { StoredCoalitions, StoredCounterfactual, StoredEvaluation } from '../../store/episodeViewRepository';
import { maxCounterfactuals, type CounterfactualView } from './viewTypes';

/** What the index knows of one episode's counterfactual rewards, as stored. */
export interface CounterfactualSources {
  /** The roster in ordinal order. */
  readonly roster: readonly { readonly agentId: number; readonly name: string }[];
  /** Every agent of the run by id (a stored key may name an agent outside the roster). */
  readonly names: ReadonlyMap<number, string>;
  readonly counterfactuals: readonly StoredCounterfactual[];
  readonly coalitions: readonly StoredCoalitions[];
  readonly evaluations: readonly StoredEvaluation[];
}

const sourceOrder = { logged: 0, computed: 1, cached: 2 } as const;

/**
 * The counterfactual table of an episode: logged interventions (`removed` = the agents they name),
 * coalition values v(S) logged or computed (`removed` = roster − S, intervention `coalition`) and
 * cached evaluator results over agent subsets (`removed` = roster − agents present, source
 * `cached`). At most `limit` rows, most informative first: single agents removed, then nobody
 * removed (the team as logged), then larger removals; logged before computed before cached.
 */
export function counterfactualViews(sources: CounterfactualSources, limit = maxCounterfactuals): CounterfactualView[] {
  const position = new Map(sources.roster.map((a, i) => [a.agentId, i]));
  const rosterIds = sources.roster.map((a) => a.agentId);
  const named = (ids: readonly number[]): string[] =>
    [...ids]
      .sort((a, b) => (position.get(a) ?? rosterIds.length + a) - (position.get(b) ?? rosterIds.length + b))
      .map((id) => sources.names.get(id) ?? `#${String(id)}`);
  const complement = (present: readonly number[]): string[] => named(rosterIds.filter((id) => !present.includes(id)));
  const views: CounterfactualView[] = [];
  for (const cf of sources.counterfactuals) {
    views.push({
      removed: named(idList(cf.agents)),
      intervention: cf.intervention,
      reward: cf.value,
      source: cf.source === 'computed' ? 'computed' : 'logged',
      evaluator: cf.evaluator,
      n: cf.n,
    });
  }
  for (const row of sources.coalitions) {
    const values = parseRecord(row.valuesJson);
    const counts = row.countsJson === null ? {} : parseRecord(row.countsJson);
    for (const [key, value] of Object.entries(values)) {
      const n = counts[key];
      views.push({
        removed: complement(idList(key)),
        intervention: 'coalition',
        reward: value,
        source: row.source === 'computed' ? 'computed' : 'logged',
        evaluator: null,
        n: n ?? null,
      });
    }
  }
  for (const e of sources.evaluations) {
    views.push({
      removed: complement(idList(e.intervention.slice('agents:'.length))),
      intervention: 'coalition',
      reward: e.value,
      source: 'cached',
      evaluator: e.evaluator,
      n: null,
    });
  }
  return views.sort(byInformation).slice(0, limit);
}

/** Singletons first, then the full team, then by number removed; then by source and names. */
function byInformation(a: CounterfactualView, b: CounterfactualView): number {
  const rank = (v: CounterfactualView): number =>
    v.removed.length === 1 ? 0 : v.removed.length === 0 ? 1 : v.removed.length;
  const [x, y] = [a.removed.join('\u0000'), b.removed.join('\u0000')];
  return rank(a) - rank(b) || sourceOrder[a.source] - sourceOrder[b.source] || (x < y ? -1 : x > y ? 1 : 0);
}

/** Agent ids of a comma-joined key (`''` = none). */
function idList(key: string): number[] {
  return key === ''
    ? []
    : key
        .split(',')
        .map(Number)
        .filter((id) => Number.isInteger(id));
}

/** A stored `{key: number}` object; `{}` when unreadable, non-numbers left out. */
function parseRecord(json: string): Record<string, number> {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
  } catch {
    return {};
  }
}
