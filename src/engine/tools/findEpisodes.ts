import { err, ok, type Result } from '../../core/result';
import { plural } from '../../core/plural';
import type { BrowseFlag } from '../../store/browseRepository';
import type { DashboardRun, EpisodeFilter, EpisodeSortKey } from '../views/viewTypes';
import { limitInput, offsetInput, optionalNumber, optionalString, paging, runInput } from './commonInputs';
import { stepFromInput, stepToInput } from './commonInputs';
import { findFlag } from './explainFlag';
import { findRun, type ToolIndex } from './toolIndex';
import type { CreditLensTool, ToolValue } from './toolTypes';

/** `find_episodes`: a page of a run's episodes by step range, flag, agent, reward and full-text search. */
export const findEpisodesTool: CreditLensTool = {
  name: 'find_episodes',
  title: 'Find episodes',
  description:
    "Finds a run's episodes (paged, with the total count): by training steps, by the steps an audit flag covers " +
    '(flagId, or flaggedAgent for the agent whose flags cover one window of steps), by an agent in the roster, ' +
    'by team reward, and by a full-text search of the message text. Gives each episode an episodeId for read_episode.',
  inputSchema: {
    type: 'object',
    properties: {
      run: runInput,
      stepFrom: stepFromInput,
      stepTo: stepToInput,
      flagId: {
        type: 'integer',
        description: 'Only the episodes this flag covers (its steps, or its episodes).',
        minimum: 0,
        maximum: 2 ** 53 - 1,
      },
      flaggedAgent: {
        type: 'string',
        description: "Only the steps this agent's flags cover (of flagKind when given).",
        maxLength: 1024,
      },
      flagKind: {
        type: 'string',
        description: 'With flaggedAgent: only flags of this kind; alone: episodes with a flag of this kind about them.',
        enum: ['silent', 'idle', 'free-rider', 'dominant', 'decoupling'],
      },
      agent: { type: 'string', description: 'Only episodes whose roster has this agent.', maxLength: 1024 },
      rewardMin: { type: 'number', description: 'Lowest logged team reward (inclusive).' },
      rewardMax: { type: 'number', description: 'Highest logged team reward (inclusive).' },
      search: {
        type: 'string',
        description: 'Full-text query over the message text (words are ANDed; "quoted phrases").',
        maxLength: 1024,
      },
      sort: {
        type: 'string',
        description: 'Sort key (default step).',
        enum: ['step', 'reward', 'messages', 'flags', 'externalId'],
        default: 'step',
      },
      descending: { type: 'boolean', description: 'Sort descending.', default: false },
      offset: offsetInput,
      limit: limitInput,
    },
    additionalProperties: false,
  },
  mutating: false,
  run: (index, input) => Promise.resolve(findEpisodes(index, input)),
};

type Input = Readonly<Record<string, unknown>>;

function findEpisodes(index: ToolIndex, input: Input): Result<ToolValue> {
  const run = findRun(index, input['run']);
  if (!run.ok) return run;
  const filter = filterOf(index, run.value, input);
  if (!filter.ok) return filter;
  const { offset, limit } = paging(input);
  const page = index.dashboard.episodes({
    runId: run.value.runId,
    filter: filter.value,
    sort: {
      key: (optionalString(input, 'sort') ?? 'step') as EpisodeSortKey,
      descending: input['descending'] === true,
    },
    offset,
    limit,
  });
  if (page.searchError !== null) return err(page.searchError);
  const next = offset + page.rows.length;
  return ok({
    run: run.value.name,
    filter: filter.value,
    total: page.total,
    totalIsLowerBound: page.totalIsLowerBound,
    offset,
    nextOffset: next < page.total || (page.totalIsLowerBound && page.rows.length === limit) ? next : null,
    ...(page.inIndexOrder === true ? { note: 'too many matches to sort: in index order' } : {}),
    ...(page.unsearched !== undefined
      ? {
          searchIncomplete: `${plural(page.unsearched, 'episode')} of this folder's index ${page.unsearched === 1 ? 'is' : 'are'} not yet searchable (an indexing pass is building the full-text index): their matches are missing`,
        }
      : {}),
    episodes: page.rows.map((r) => ({
      episodeId: r.episodeId,
      externalId: r.externalId,
      step: r.step,
      group: r.group,
      sample: r.sample,
      reward: r.reward,
      agents: r.agents,
      messages: r.messages,
      flags: r.flags,
    })),
  });
}

/** The episode table's filter from the tool's inputs, a flag's steps intersected with the asked ones. */
function filterOf(index: ToolIndex, run: DashboardRun, input: Input): Result<EpisodeFilter> {
  const steps = flagSteps(index, run, input);
  if (!steps.ok) return steps;
  const { window, kind, agent } = steps.value;
  const from = maxOf(optionalNumber(input, 'stepFrom'), window?.[0]);
  const to = minOf(optionalNumber(input, 'stepTo'), window?.[1]);
  if (from !== undefined && to !== undefined && from > to)
    return err(`no steps left: the asked steps and the flag's (${window?.join('–') ?? ''}) do not overlap`);
  return ok({
    ...(from !== undefined ? { stepFrom: from } : {}),
    ...(to !== undefined ? { stepTo: to } : {}),
    ...(kind !== undefined ? { flag: kind } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...numberField('rewardMin', optionalNumber(input, 'rewardMin')),
    ...numberField('rewardMax', optionalNumber(input, 'rewardMax')),
    ...(optionalString(input, 'search') ? { search: optionalString(input, 'search') } : {}),
  });
}

interface FlagSteps {
  readonly window?: readonly [number, number];
  /** An episode-level flag kind (EpisodeFilter.flag). */
  readonly kind?: string;
  readonly agent?: string;
}

function flagSteps(index: ToolIndex, run: DashboardRun, input: Input): Result<FlagSteps> {
  const agent = optionalString(input, 'agent');
  const kind = optionalString(input, 'flagKind');
  const flagId = optionalNumber(input, 'flagId');
  if (flagId !== undefined) {
    const found = findFlag(index, flagId);
    if (!found.ok) return found;
    if (found.value.flag.runId !== undefined && found.value.flag.runId !== run.runId)
      return err(`flag ${flagId} is about run "${found.value.run}", not "${run.name}"`);
    return ok(coverage(found.value.flag, agent));
  }
  const flaggedAgent = optionalString(input, 'flaggedAgent');
  if (flaggedAgent === undefined) return ok({ ...(kind ? { kind } : {}), ...(agent ? { agent } : {}) });
  const flags = index.browse.flags(run.runId).filter((f) => f.agent === flaggedAgent && (!kind || f.kind === kind));
  const windows = flags.filter((f) => f.steps !== null && f.scope !== 'episode');
  const hull = oneWindow(windows.map((f) => f.steps ?? [0, 0]));
  if (windows.length === 0)
    return err(`${flaggedAgent} has no ${kind ?? ''} flag over steps in run "${run.name}"`.replace('  ', ' '));
  if (!hull)
    return err(
      `${flaggedAgent}'s flags cover several windows of steps: give one flagId of ${windows.map((f) => `${f.flagId} (${f.kind}, steps ${f.steps?.join('–') ?? ''})`).join(', ')}`,
    );
  return ok({ window: hull, agent: agent ?? flaggedAgent });
}

/** What a flag covers: its window of steps, or (an episode-scope flag) the episodes with a flag of its kind. */
function coverage(flag: BrowseFlag, agent: string | undefined): FlagSteps {
  const who = agent ?? flag.agent ?? undefined;
  if (flag.scope === 'episode') return { kind: flag.kind, ...(who ? { agent: who } : {}) };
  return { ...(flag.steps ? { window: flag.steps } : {}), ...(who ? { agent: who } : {}) };
}

/** The windows as one range when they overlap or touch in a chain; undefined when they leave a gap. */
function oneWindow(windows: readonly (readonly [number, number])[]): readonly [number, number] | undefined {
  const sorted = [...windows].sort((a, b) => a[0] - b[0]);
  const first = sorted[0];
  if (!first) return undefined;
  const from = first[0];
  let to = first[1];
  for (const [a, b] of sorted.slice(1)) {
    if (a > to + 1) return undefined;
    to = Math.max(to, b);
  }
  return [from, to];
}

const maxOf = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);
const minOf = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);
const numberField = (key: string, value: number | undefined): Record<string, number> =>
  value === undefined ? {} : { [key]: value };
