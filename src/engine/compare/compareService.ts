import type {
  ComparisonRequest,
  ComparisonSide,
  CompareRunChoice,
  RunComparer,
  RunComparison,
} from '../../core/runComparison';
import type { CompareEpisode, CompareFailures } from '../../store/compareRepository';
import type { Db } from '../../store/database';
import { agentComparisons, creditByEpisode, examplePairs, rewardDifference } from './agentComparisons';
import { comparisonNotes, creditRemedy, type SideFacts } from './comparisonNotes';
import { flagChanges } from './flagChanges';
import { pairEpisodes, sharedKeys, type Pairing } from './pairEpisodes';
import { promptKeys, type PromptKeys } from './promptKeys';
import { SideReader, type ResolvedSide } from './sideReader';

export interface CompareServiceOptions {
  /** The folder `db` indexes: prompts are read back from it when episodes log no task id, and remedies name it. */
  readonly root?: string;
  /** Side B's index when B is another folder's (its own open index); by default B is a run of `db`. */
  readonly b?: { readonly db: Db; readonly root?: string };
}

/**
 * Compares two runs, or two step ranges of one run, under one stored credit method
 * (docs/credit-methods.md §5.5): pairs their episodes by task id, else by prompt, and reports per
 * agent the paired credit difference, the credit shares and their difference, the team reward
 * difference, the flags that appeared or disappeared, example pairs and what was excluded. Reads
 * stored credit only (never computes it): a side without credit for the method is an Error naming
 * the `credit-lens credit` command that would give it.
 */
export class CompareService implements RunComparer {
  private readonly readerA: SideReader;
  private readonly readerB: SideReader;

  constructor(db: Db, options: CompareServiceOptions = {}) {
    this.readerA = new SideReader(db, options.root);
    this.readerB = options.b ? new SideReader(options.b.db, options.b.root) : this.readerA;
  }

  choices(): readonly CompareRunChoice[] {
    return this.readerA.choices();
  }

  compare(request: ComparisonRequest): RunComparison {
    const method = request.method.trim();
    if (method === '') throw new Error('no credit method given (e.g. loo)');
    const [labelA, labelB] = sideLabels(request);
    const a = this.facts(this.readerA, this.readerA.resolve(request.a, labelA), method);
    const b = this.facts(this.readerB, this.readerB.resolve(request.b, labelB), method);
    const { pairing, prompts } = this.pair(a, b);
    const creditA = creditByEpisode(this.readerA.compare.credit(a.resolved.scope, method, a.paramsHash));
    const creditB = creditByEpisode(this.readerB.compare.credit(b.resolved.scope, method, b.paramsHash));
    const agents = agentComparisons(pairing.pairs, creditA, creditB).map((agent) =>
      agent.missing
        ? { ...agent, missing: `${agent.missing}; if its episodes have it, ${creditRemedy(method, [a, b])}` }
        : agent,
    );
    const flagsA = this.readerA.flags(a.resolved.scope.runId);
    const flagsB = this.readerB.flags(b.resolved.scope.runId);
    return {
      a: a.resolved.side,
      b: b.resolved.side,
      method,
      pairing: pairing.summary,
      reward: rewardDifference(pairing.pairs),
      agents,
      flags: flagChanges(a.resolved.side, flagsA, b.resolved.side, flagsB),
      examples: examplePairs(pairing.pairs, creditA, creditB),
      notes: comparisonNotes({
        method,
        a,
        b,
        pairing: pairing.summary,
        agents,
        audited: [flagsA !== undefined, flagsB !== undefined],
        ...(prompts ? { prompts } : {}),
      }),
    };
  }

  /** What a side holds: its episodes, the parameter set read, its failures; throws when it has no credit. */
  private facts(reader: SideReader, resolved: ResolvedSide, method: string): SideFacts {
    const [widest, ...others] = reader.paramSets(resolved.scope.runId, method);
    const paramsHash = widest?.paramsHash;
    if (widest === undefined || paramsHash === undefined)
      throw new Error(
        `${resolved.side.label} has no stored ${method} credit; run \`credit-lens credit ${reader.root ?? '<run-dir>'} --method ${method} --run ${resolved.side.run}\` first`,
      );
    const episodes = reader.compare.episodes(resolved.scope);
    const failures: CompareFailures[] = reader.compare.failures(resolved.scope, method, paramsHash);
    const newer = others.filter((set) => set.newest > widest.newest);
    return { resolved, root: reader.root, paramsHash, covered: widest.episodes, newer, episodes, failures };
  }

  /** By task id when the sides share one, else by prompt hash when both can be read back, else nothing paired. */
  private pair(a: SideFacts, b: SideFacts): { pairing: Pairing; prompts?: readonly [PromptKeys, PromptKeys] } {
    const byTask = (e: CompareEpisode): string | undefined => e.task ?? undefined;
    const byTaskPairing = (): Pairing => pairEpisodes(a.episodes, b.episodes, 'task', byTask);
    if (sharedKeys(a.episodes, b.episodes, byTask) > 0 || a.root === undefined || b.root === undefined)
      return { pairing: byTaskPairing() };
    const prompts = [promptKeys(a.root, a.episodes), promptKeys(b.root, b.episodes)] as const;
    const [keysA, keysB] = prompts;
    const pairing = pairEpisodes(
      a.episodes,
      b.episodes,
      'prompt',
      (e) => keysA.byEpisode.get(e.episodeId),
      (e) => keysB.byEpisode.get(e.episodeId),
    );
    return { pairing, prompts };
  }
}

/** The sides' labels: the run names, with their steps when given or when both sides are one run. */
function sideLabels(request: ComparisonRequest): [string, string] {
  const bound = (step: number): string => (Number.isFinite(step) ? String(step) : '');
  const label = (side: Omit<ComparisonSide, 'label'>): string =>
    side.steps ? `${side.run} steps ${bound(side.steps.from)}..${bound(side.steps.to)}` : side.run;
  const [labelA, labelB] = [label(request.a), label(request.b)];
  return labelA === labelB ? [`A: ${labelA}`, `B: ${labelB}`] : [labelA, labelB];
}
