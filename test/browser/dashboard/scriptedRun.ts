// A scripted stand-in for the host side of the Run Dashboard: a demo-like run (planner / solver /
// verifier over 60 steps, the verifier's credit share collapsing from step 28) and an episode
// table of 20,000 rows with real sort, filter and search logic.
import type {
  DashboardRunsData,
  EpisodeFilter,
  EpisodePage,
  EpisodeRow,
  GetEpisodesParams,
  Matrix,
  RunOverview,
} from '../../../src/protocol/dashboardPanel';
import type { FlagView, ViewMethod } from '../../../src/protocol/viewData';
import { mulberry32 } from '../../../src/core/mulberry32';

export interface ScriptedEpisode extends EpisodeRow {
  readonly roster: readonly string[];
  readonly kinds: readonly string[];
  readonly text: string;
}

export interface ScriptedRun {
  readonly runs: DashboardRunsData;
  readonly overview: (method: ViewMethod) => RunOverview;
  readonly episodes: readonly ScriptedEpisode[];
}

export const demoFolder = '/tmp/credit-lens-demo/planner-solver-verifier';
export const collapseStep = 28;

export interface RunShape {
  readonly agents?: readonly string[];
  readonly steps?: number;
  readonly episodes?: number;
  readonly groupPrefix?: string;
  readonly idPrefix?: string;
  readonly folderName?: string;
  readonly runName?: string;
}

function matrix(
  rows: readonly string[],
  cols: readonly number[],
  value: (row: number, col: number) => number | null,
): Matrix<string, number> {
  return { rows, cols, values: rows.flatMap((_, r) => cols.map((_, c) => value(r, c))) };
}

/** Credit shares per agent at step index `i`: the last agent's share falls to ~0 from the collapse. */
function shares(i: number, agents: number, steps: number, method: ViewMethod): number[] {
  if (method === 'shared') return new Array<number>(agents).fill(1 / agents);
  const collapse = Math.round((collapseStep / 60) * steps);
  const fade = i < collapse ? 1 : Math.max(0, 1 - (i - collapse) / 3);
  const last = (method === 'shapley' ? 0.29 : 0.31) * fade + (i >= collapse + 3 ? 0.004 : 0);
  const rest = 1 - last;
  const first = rest * (0.48 + 0.04 * Math.sin(i / 5));
  const middle = agents > 2 ? rest - first : 0;
  return agents > 2 ? [first, middle, ...new Array<number>(agents - 3).fill(0), last].slice(0, agents) : [rest, last];
}

function flagsOf(agent: string, to: number): FlagView[] {
  return [
    {
      flagId: 1,
      kind: 'decoupling',
      agent,
      scope: 'step',
      steps: [collapseStep, to],
      score: 0.94,
      summary: `credit share 0.31 → 0.00 over steps ${String(collapseStep)}–${String(to)} while team reward rose`,
      evidence: [],
    },
    {
      flagId: 2,
      kind: 'idle',
      agent,
      scope: 'step',
      steps: [collapseStep, to],
      score: 0.97,
      summary: `idle in 97% of episodes over steps ${String(collapseStep)}–${String(to)}`,
      evidence: [],
    },
  ];
}

/** The overview for `method`; 'shapley-mc' is not computed, 'owen' has no evaluator. */
function overviewFor(
  agents: readonly string[],
  steps: readonly number[],
  method: ViewMethod,
  runId: number,
): RunOverview {
  const n = steps.length;
  const reward = steps.map((_, i) => 0.72 + (0.18 * i) / Math.max(1, n - 1) + 0.01 * Math.sin(i));
  const share = steps.map((_, i) => shares(i, agents.length, n, method));
  const last = agents[agents.length - 1] ?? 'agent';
  const to = steps[n - 1] ?? 0;
  const collapse = steps.findIndex((s) => s >= collapseStep);
  const flagged = (c: number): boolean => collapse >= 0 && c >= collapse;
  const status = method === 'shapley-mc' ? 'not-computed' : method === 'owen' ? 'no-evaluator' : 'computed';
  const empty = status !== 'computed';
  const flags = method === 'shared' || empty ? [] : flagsOf(last, to);
  // Routing in the scripted run: a third of the episodes log no routing decision, so they are counted, not drawn.
  const unidentified = method === 'routing' ? Math.round((333 * n) / 3) : 0;
  return {
    runId,
    method,
    status,
    coverage: {
      episodes: 333 * n,
      drawn: empty ? 0 : 333 * n - unidentified,
      approximate: 0,
      notIdentifiable: unidentified,
      failed: 0,
      reason:
        unidentified > 0
          ? 'routing credit needs the logged router probabilities of every expert and the selected one; this episode logs no routing decision'
          : null,
      remedy:
        unidentified > 0
          ? "log the router's probabilities of every expert and the selected one (routing.probs, routing.selected)"
          : null,
    },
    steps,
    teamReward: reward,
    episodes: steps.map(() => 333),
    creditShare: empty ? matrix([], [], () => null) : matrix(agents, steps, (r, c) => share[c]?.[r] ?? null),
    meanCredit: empty
      ? matrix([], [], () => null)
      : matrix(agents, steps, (r, c) => ((share[c]?.[r] ?? 0) - 1 / agents.length) * (reward[c] ?? 0)),
    idleRate: empty
      ? matrix([], [], () => null)
      : matrix(agents, steps, (r, c) => (r === agents.length - 1 && flagged(c) ? 0.95 : 0.03)),
    flagCounts: matrix(agents, steps, (r, c) => (r === agents.length - 1 && flagged(c) && flags.length > 0 ? 2 : 0)),
    windows: flags.map((f) => ({
      flagId: f.flagId,
      kind: f.kind,
      agent: f.agent,
      from: f.steps?.[0] ?? 0,
      to: f.steps?.[1] ?? 0,
    })),
    flags,
    epsilon: 0.01,
    colour: { domain: { bound: 1, reward: { min: 0, max: 1 } }, unidentifiedSteps: [] },
  };
}

function episodesFor(shape: Required<RunShape>, stepCount: number): ScriptedEpisode[] {
  const random = mulberry32(7);
  const perStep = shape.episodes / stepCount;
  return Array.from({ length: shape.episodes }, (_, i) => {
    const step = Math.floor(i / perStep);
    const k = i - Math.ceil(step * perStep);
    const group = `${shape.groupPrefix}${String(step)}-${String(Math.floor(k / 8))}`;
    const late = step >= collapseStep;
    const reward = Math.round((0.5 + 0.4 * random() + (0.1 * step) / stepCount) * 1000) / 1000;
    const verifierSays = late ? 'LGTM' : 'checks each line and confirms the answer';
    return {
      episodeId: i + 1,
      externalId: `${shape.idPrefix}${String(step)}-${String(k)}`,
      step,
      group,
      sample: k % 8,
      reward: i % 97 === 5 ? null : reward,
      agents: shape.agents.length,
      messages: 3 + (i % 5),
      flags: late ? 2 : 0,
      // Agent credit in the run's agent order; every 11th episode has none for the last agent.
      credit: shape.agents.map((_, a) =>
        a === shape.agents.length - 1 && i % 11 === 3 ? null : Math.round(((i * 7 + a * 13) % 41) * 50 - 1000) / 1000,
      ),
      roster: shape.agents,
      kinds: late ? ['decoupling', 'idle'] : [],
      text: `plan the steps solve answer ${String(Math.round(reward * 100))} ${verifierSays}`.toLowerCase(),
    };
  });
}

/** A run shaped like the demo (3 agents, 60 steps, 20,000 episodes) unless `shape` says otherwise. */
export function scriptedRun(shape: RunShape = {}): ScriptedRun {
  const full: Required<RunShape> = {
    agents: ['planner', 'solver', 'verifier'],
    steps: 60,
    episodes: 20_000,
    groupPrefix: 'g',
    idPrefix: 'ep-',
    folderName: 'planner-solver-verifier',
    runName: 'planner-solver-verifier',
    ...shape,
  };
  const steps = Array.from({ length: full.steps }, (_, i) => i);
  const runs: DashboardRunsData = {
    folder: demoFolder,
    folderName: full.folderName,
    runs: [
      {
        runId: 1,
        name: full.runName,
        mechanism: 'pipeline',
        episodes: full.episodes,
        agents: full.agents,
        steps: { min: 0, max: full.steps - 1, count: full.steps },
        flags: 2,
      },
      {
        runId: 2,
        name: 'routed-experts',
        mechanism: 'routing',
        episodes: 0,
        agents: ['router'],
        steps: { min: null, max: null, count: 0 },
        flags: 0,
      },
    ],
    selectedRunId: 1,
    defaultMethod: 'loo',
    revision: 1,
  };
  return {
    runs,
    overview: (method) => overviewFor(full.agents, steps, method, 1),
    episodes: episodesFor(full, full.steps),
  };
}

/** Thrown for queries FTS5 would reject (unbalanced quotes, a bare operator). */
function searchError(search: string): string | null {
  if ((search.match(/"/g) ?? []).length % 2 === 1) return `fts5: syntax error near "${search}"`;
  return /^(AND|OR|NOT)\b/.test(search.trim())
    ? `fts5: syntax error near "${search.trim().split(/\s+/)[0] ?? ''}"`
    : null;
}

function matches(e: ScriptedEpisode, f: EpisodeFilter): boolean {
  const between = (v: number | null, lo?: number | null, hi?: number | null): boolean =>
    (lo == null || (v !== null && v >= lo)) && (hi == null || (v !== null && v <= hi));
  if (!between(e.step, f.stepFrom, f.stepTo) || !between(e.reward, f.rewardMin, f.rewardMax)) return false;
  if (f.group && e.group !== f.group) return false;
  if (f.agent && !e.roster.includes(f.agent)) return false;
  const credit = f.agentCredit;
  if (credit && !between(e.credit?.[e.roster.indexOf(credit.agent)] ?? null, credit.min, credit.max)) return false;
  if (f.flag && (f.flag === 'any' ? e.kinds.length === 0 : !e.kinds.includes(f.flag))) return false;
  const words = (f.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return words.every((w) => e.text.includes(w.replace(/"/g, '')));
}

/** The value a sort key reads: a column, or an agent's credit (`agents`: the run's, the order of `credit`). */
function sortValue(e: ScriptedEpisode, key: GetEpisodesParams['sort']['key'], agents: readonly string[]) {
  if (!key.startsWith('credit:')) return e[key as Exclude<typeof key, `credit:${string}`>];
  return e.credit?.[agents.indexOf(key.slice('credit:'.length))] ?? null;
}

/** SQLite's order: NULL sorts before every value (so last when descending); credit without a value sorts last. */
function compare(
  key: GetEpisodesParams['sort']['key'],
  agents: readonly string[],
  descending: boolean,
): (a: ScriptedEpisode, b: ScriptedEpisode) => number {
  const nullFirst = key.startsWith('credit:') ? descending : true;
  return (a, b) => {
    const x = sortValue(a, key, agents);
    const y = sortValue(b, key, agents);
    if (x === y) return 0;
    if (x === null) return nullFirst ? -1 : 1;
    if (y === null) return nullFirst ? 1 : -1;
    return x < y ? -1 : 1;
  };
}

/** One page of the table, as the data service would answer it. */
export function episodePage(run: ScriptedRun, params: GetEpisodesParams): EpisodePage {
  const error = params.filter.search ? searchError(params.filter.search) : null;
  if (error) return { total: 0, totalIsLowerBound: false, offset: params.offset, rows: [], searchError: error };
  const rows = run.episodes.filter((e) => matches(e, params.filter));
  const agents = run.runs.runs.find((r) => r.runId === params.runId)?.agents ?? [];
  const order = compare(params.sort.key, agents, params.sort.descending);
  rows.sort((a, b) => (params.sort.descending ? order(b, a) : order(a, b)) || a.episodeId - b.episodeId);
  const page = rows
    .slice(params.offset, params.offset + params.limit)
    .map(({ roster: _r, kinds: _k, text: _t, ...row }) => row);
  return { total: rows.length, totalIsLowerBound: false, offset: params.offset, rows: page, searchError: null };
}
