import type { Db } from '../../store/database';
import { CreditColourRepository } from '../../store/creditColourRepository';
import { GroupViewRepository, type GroupRolloutRow, type GroupRosterRow } from '../../store/groupViewRepository';
import { RunProducerRepository } from '../../store/runProducerRepository';
import type { AdvantageSignal, GroupRef, GroupRolloutView, GroupViewData } from '../../protocol/groupPanel';
import { chooseAdvantageConvention, type AdvantageChoice } from '../credit/advantageConvention';
import { creditMethods } from '../credit/creditMethod';
import { groupStatus, noteCredit, rolloutCredits, storedAdvantage, type RolloutCredit } from './groupCredit';
import { creditDomain } from './creditDomain';
import {
  byReward,
  conventionView,
  creditByMethod,
  groupAdvantages,
  rewardMoments,
  type MethodCredit,
} from './groupSignals';
import type { ViewMethod } from './viewTypes';

/** A GRPO group of a run, without its folder (the service knows its folder). */
export type GroupKey = Omit<GroupRef, 'folder'>;

/**
 * The data of the group view for one indexed folder: the rollouts of one GRPO group side by side,
 * each with its reward, its advantage under every signal the index has (the team reward, the
 * trainer's logged advantages, every stored credit method) and its per-agent credit under the
 * chosen method. Advantages come from the engine's conventions (`advantagesFor`) or the credit
 * pass's stored values; the view never computes its own.
 */
export class GroupViewService {
  private readonly repo: GroupViewRepository;
  private readonly producers: RunProducerRepository;
  private readonly colours: CreditColourRepository;

  /** `root`: absolute path of the indexed folder. */
  constructor(
    db: Db,
    private readonly root: string,
  ) {
    this.repo = new GroupViewRepository(db);
    this.producers = new RunProducerRepository(db);
    this.colours = new CreditColourRepository(db);
  }

  /** The group of an episode and its rollout count; undefined when the episode logs no group (or is unknown). */
  groupOfEpisode(episodeId: number): (GroupKey & { readonly rollouts: number }) | undefined {
    const row = this.repo.groupOfEpisode(episodeId);
    return row?.group == null ? undefined : { runId: row.runId, group: row.group, rollouts: row.rollouts };
  }

  /** Whether `episodeId` is a rollout of the group (one episode's row, not the group's rollouts). */
  hasRollout(key: GroupKey, episodeId: number): boolean {
    const group = this.groupOfEpisode(episodeId);
    return group?.runId === key.runId && group.group === key.group;
  }

  /** The group under `method`; throws when the run is not in the index. */
  group(key: GroupKey, method: ViewMethod): GroupViewData {
    const run = this.repo.run(key.runId);
    if (!run) throw new Error(`run ${String(key.runId)} is not in the index; re-index the folder`);
    const rows = byReward(this.repo.rollouts(key.runId, key.group));
    const notes: string[] = [];
    if (rows.length === 0)
      notes.push(
        run.grouped
          ? `Run ${run.name || '(root)'} has no group "${key.group}" (any more): re-index the folder, or open another group.`
          : `Run ${run.name || '(root)'} logs no GRPO groups: none of its episodes carries a group id.`,
      );
    const choice = this.convention(run.name, key.runId, notes);
    const convention = choice?.convention;
    const roster = this.repo.roster(key.runId, key.group);
    const agents = agentOrder(roster);
    const rewards = rows.map((r) => r.reward);
    const moments = rewardMoments(rewards, convention);
    const rewarded = rewards.filter((r) => r !== null).length;
    noteGroupSize(rows.length, rewarded, notes);
    const stored = creditByMethod(this.repo.credit(key.runId, key.group));
    const rewardAdvantages = groupAdvantages(rewards, convention);
    const signals = this.signals(rows, roster, stored, rewarded);
    const advantages = signalValues(signals, rows, agents, roster, stored, rewardAdvantages);
    const errors = this.repo.errors(key.runId, key.group);
    const credits = rolloutCredits(rows, agents, method, { credit: stored.get(method), errors, rewardAdvantages });
    const credited = credits.filter((c) => c.status === 'computed').length;
    noteCredit(method, rows.length, credited, credits, notes);
    return {
      ref: { folder: this.root, ...key },
      runName: run.name,
      method,
      steps: [...new Set(rows.flatMap((r) => (r.step === null ? [] : [r.step])))].sort((a, b) => a - b),
      agents,
      rollouts: rows.map((r, i) => rolloutView(r, i, agents, roster, advantages, credits)),
      rewardMean: moments.mean,
      rewardStd: moments.std,
      rewarded,
      convention: choice ? conventionView(choice, rewarded) : null,
      signals,
      creditStatus: groupStatus(credits, credited),
      credited,
      notes,
      creditDomain: creditDomain(this.colours.rewardSpan(key.runId)),
    };
  }

  private convention(runName: string, runId: number, notes: string[]): AdvantageChoice | undefined {
    try {
      return chooseAdvantageConvention(runName, this.producers.producer(runId));
    } catch (error) {
      notes.push(`No advantage is shown: ${error instanceof Error ? error.message : String(error)}.`);
      return undefined;
    }
  }

  /** The signals the index has for the group: the team reward, logged advantages, stored methods. */
  private signals(
    rows: readonly GroupRolloutRow[],
    roster: readonly GroupRosterRow[],
    stored: ReadonlyMap<string, MethodCredit>,
    rewarded: number,
  ): AdvantageSignal[] {
    const signals: AdvantageSignal[] = [{ id: 'reward', perAgent: false, covered: rewarded }];
    const logged = new Set(roster.filter((r) => r.loggedAdvantage !== null).map((r) => r.episodeId));
    if (logged.size > 0) signals.push({ id: 'logged', perAgent: true, covered: logged.size });
    for (const method of creditMethods) {
      const credit = stored.get(method);
      if (credit)
        signals.push({
          id: method,
          perAgent: true,
          covered: rows.filter((r) => credit.byRollout.has(r.episodeId)).length,
        });
    }
    return signals;
  }
}

/** Agents by their first roster position over the rollouts, then by name. */
function agentOrder(roster: readonly GroupRosterRow[]): string[] {
  const first = new Map<string, number>();
  for (const r of roster) first.set(r.agent, Math.min(first.get(r.agent) ?? Infinity, r.ordinal));
  return [...first].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).map(([agent]) => agent);
}

/** The honest states of the group's size and rewards. */
function noteGroupSize(rollouts: number, rewarded: number, notes: string[]): void {
  if (rollouts === 1)
    notes.push(
      'A group of 1 rollout: a group-relative advantage is undefined (there is no other rollout of the prompt to compare with).',
    );
  else if (rollouts > 1 && rewarded < rollouts)
    notes.push(
      `${String(rollouts - rewarded)} of ${String(rollouts)} rollouts log no team reward: they have no reward advantage and are left out of the mean.`,
    );
}

/** Per signal, per rollout: one value (the reward) or one per agent. */
function signalValues(
  signals: readonly AdvantageSignal[],
  rows: readonly GroupRolloutRow[],
  agents: readonly string[],
  roster: readonly GroupRosterRow[],
  stored: ReadonlyMap<string, MethodCredit>,
  rewardAdvantages: readonly (number | null)[],
): (number | null)[][][] {
  const logged = new Map(roster.map((r) => [`${String(r.episodeId)}\u0000${r.agent}`, r.loggedAdvantage]));
  return signals.map((signal) => {
    if (signal.id === 'reward') return rows.map((_, i) => [rewardAdvantages[i] ?? null]);
    if (signal.id === 'logged')
      return rows.map((r) => agents.map((a) => logged.get(`${String(r.episodeId)}\u0000${a}`) ?? null));
    const credit = stored.get(signal.id);
    return rows.map((r) => agents.map((a) => storedAdvantage(credit, r.episodeId, a)));
  });
}

function rolloutView(
  row: GroupRolloutRow,
  index: number,
  agents: readonly string[],
  roster: readonly GroupRosterRow[],
  advantages: readonly (readonly (readonly (number | null)[])[])[],
  credits: readonly RolloutCredit[],
): GroupRolloutView {
  const own = new Set(roster.filter((r) => r.episodeId === row.episodeId).map((r) => r.agent));
  const credit = credits[index];
  return {
    episodeId: row.episodeId,
    externalId: row.externalId,
    step: row.step,
    sample: row.sample,
    reward: row.reward,
    inRoster: agents.map((a) => own.has(a)),
    advantages: advantages.map((signal) => signal[index] ?? []),
    creditStatus: credit?.status ?? 'not-computed',
    creditReason: credit?.reason ?? null,
    creditRemedy: credit?.remedy ?? null,
    credit: credit?.credit ?? [],
  };
}
