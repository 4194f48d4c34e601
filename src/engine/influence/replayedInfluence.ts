import type { CreditEpisode } from '../../core/creditInput';
import type { Episode } from '../../core/episode';
import type { EvaluatorEpisode } from '../../credit/evaluator/finalAnswerEvaluator';
import { coalitionAnswer } from '../../credit/evaluator/finalAnswerEvaluator';
import { tokenSetDistance } from '../../credit/replay/outputDistance';
import { planReplay } from '../../credit/replay/planReplay';
import { estimateReplayCost, totalReplayCost, type ReplayCost } from '../../credit/replay/replayCost';
import { replayedEvaluatorEpisode, replayReward } from '../../credit/replay/replayReward';
import type { ConversationMessage, ReplayIntervention } from '../../credit/replay/replayTypes';
import type { CreditRepository } from '../../store/creditRepository';
import {
  readForReplay,
  replayContextFingerprint,
  replayConversations,
  type ReplayContext,
} from '../evaluators/replay/replayEvaluator';
import { answerKey, maxReplayedPairAgents, messageEffectKey, outputKey, type SourcedValue } from './replayedEdges';

/** What one episode's replayed influence gave: the values by key, what it left out and why. */
export interface EpisodeReplayInfluence {
  readonly values: ReadonlyMap<string, SourcedValue>;
  /** The episode's messages, and those whose outcome edge was computed (replayed now or cached). */
  readonly messages: { readonly total: number; readonly computed: number };
  /** Why something was not computed (budget, a checker that disagrees with the logged reward, a failed replay). */
  readonly notes: readonly string[];
  /** Replay calls the uncached part was estimated to need before anything was sent. */
  readonly estimate: ReplayCost;
}

/** One replay the episode still needs: which values it answers and how to compute them. */
interface Task {
  readonly keys: readonly string[];
  readonly interventions: readonly ReplayIntervention[];
  readonly run: (read: ReadEpisode) => Promise<Map<string, number>>;
}

interface ReadEpisode {
  readonly episode: Episode;
  readonly base: EvaluatorEpisode;
}

/**
 * Replayed influence of one episode (credit-methods.md §3.17), through the replay evaluator's
 * session `context` (its planner, client and fingerprint) and the index's evaluation cache:
 *
 * - for each of the first `maxMessages` messages m, `v(M) − v(M ∖ {m})`: message m dropped, what
 *   follows regenerated, the new conversation scored by the checker (mean of K samples); only when the
 *   checker reproduces the episode's logged reward (else no message edge, with the reason);
 * - for each agent i and each other agent j, how far j's output moves when i is removed: the mean
 *   over samples of {@link tokenSetDistance} between j's messages from i's first message on, replayed
 *   without i and replayed with i (same cut, same seed, so sampling alone moves nothing), and the
 *   share of samples in which j's final answer changed.
 *
 * Values found in the cache are used as they are (source `cached`); new ones are stored under the
 * same fingerprint (`replayed`). A failed replay leaves its values out and names itself in `notes`.
 */
export async function replayEpisodeInfluence(
  context: ReplayContext,
  cache: CreditRepository,
  credit: CreditEpisode,
  maxMessages: number,
): Promise<EpisodeReplayInfluence> {
  const fingerprint = replayContextFingerprint(context);
  const cached = cache.cachedEvaluations(credit.episodeId, fingerprint);
  const values = new Map<string, SourcedValue>();
  const total = credit.messageAuthors.length;
  const budgeted = Math.min(total, Math.max(0, Math.floor(maxMessages)));
  const notes: string[] = [];
  if (budgeted < total)
    notes.push(
      `message edges of messages #${String(budgeted + 1)}–#${String(total)} not computed (--max-messages ${String(budgeted)})`,
    );
  const tasks = [...messageTasks(context, credit, budgeted, notes), ...outputTasks(context, credit)].filter((task) => {
    const found = task.keys.map((k) => cached.get(k));
    if (found.some((f) => f === undefined)) return true;
    task.keys.forEach((k, i) => values.set(k, { value: found[i]?.value ?? NaN, source: 'cached' }));
    return false;
  });
  let estimate: ReplayCost = { calls: 0, promptTokens: 0, completionTokens: 0 };
  if (tasks.length > 0) {
    const read = await readForReplay(context, credit);
    estimate = estimateTasks(context, read.episode, tasks);
    const fresh = await runTasks(tasks, read, notes);
    cache.storeEvaluations(
      [...fresh].map(([intervention, value]) => ({
        episodeId: credit.episodeId,
        evaluator: fingerprint,
        intervention,
        value,
        replayed: true,
      })),
    );
    for (const [key, value] of fresh) values.set(key, { value, source: 'replayed' });
  }
  const computed = credit.messageAuthors.filter((_, seq) => values.has(messageEffectKey(seq))).length;
  return { values, messages: { total, computed }, notes, estimate };
}

/** Runs every task (the client bounds the calls in flight); a failed one is noted, the others kept. */
async function runTasks(tasks: readonly Task[], read: ReadEpisode, notes: string[]): Promise<Map<string, number>> {
  const fresh = new Map<string, number>();
  const outcomes = await Promise.allSettled(tasks.map((task) => task.run(read)));
  outcomes.forEach((outcome) => {
    if (outcome.status === 'fulfilled') for (const [key, value] of outcome.value) fresh.set(key, value);
    else
      notes.push(
        `a replay failed: ${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}`,
      );
  });
  return fresh;
}

function estimateTasks(context: ReplayContext, episode: Episode, tasks: readonly Task[]): ReplayCost {
  const costs = tasks.flatMap((task) =>
    task.interventions.flatMap((intervention) => {
      const plan = planReplay(episode, intervention, context.config);
      if (!plan.ok) return [];
      const generates = plan.value.steps.some((s) => s.kind === 'generate');
      return [estimateReplayCost(plan.value, generates ? context.options.samples : 1)];
    }),
  );
  return totalReplayCost(costs);
}

/** The message → outcome tasks of messages `0 .. budgeted − 1`; none when the checker cannot stand for the logged reward. */
function messageTasks(context: ReplayContext, credit: CreditEpisode, budgeted: number, notes: string[]): Task[] {
  if (budgeted === 0) return [];
  const full: ReplayIntervention = { kind: 'messages', keep: credit.messageAuthors.length };
  return Array.from({ length: budgeted }, (_, seq) => ({
    keys: [messageEffectKey(seq)],
    interventions: [{ kind: 'drop', messages: [seq] }],
    run: async (read) => {
      const whole = meanReward(read, await replayConversations(context, read.episode, full), context);
      if (!agreesWithLog(whole, credit.reward)) {
        const note = `no message edges: the checker scores the logged episode ${String(whole)}, its logged reward is ${String(credit.reward)} (a checker that reproduces the reward would give them)`;
        if (!notes.includes(note)) notes.push(note);
        return new Map<string, number>();
      }
      const without = meanReward(
        read,
        await replayConversations(context, read.episode, { kind: 'drop', messages: [seq] }),
        context,
      );
      return new Map([[messageEffectKey(seq), whole - without]]);
    },
  }));
}

function agreesWithLog(score: number, reward: number | null): boolean {
  return Number.isFinite(score) && (reward === null || Math.abs(score - reward) <= 1e-9);
}

function meanReward(
  read: ReadEpisode,
  conversations: readonly ConversationMessage[][],
  context: ReplayContext,
): number {
  const rewards = conversations.map((c) => replayReward(read.base, c, context.checker));
  return rewards.reduce((a, b) => a + b, 0) / rewards.length;
}

/** One task per speaking agent i: replays without i and with i from i's first message, compared for every other agent. */
function outputTasks(context: ReplayContext, credit: CreditEpisode): Task[] {
  if (credit.agents.length > maxReplayedPairAgents) return [];
  const names = credit.agents.map((a) => a.name);
  return credit.agents.flatMap((removed, i) => {
    const cut = credit.messageAuthors.indexOf(i);
    if (cut < 0) return []; // never speaks: its removal changes nothing, and its outcome edge says so
    const others = credit.agents.filter((_, j) => j !== i);
    const keys = others.flatMap((o) => [outputKey(removed.agentId, o.agentId), answerKey(removed.agentId, o.agentId)]);
    const without: ReplayIntervention = { kind: 'agents', removed: [names[i] ?? ''], mode: context.options.mode };
    const within: ReplayIntervention = { kind: 'messages', keep: cut };
    const downstream = othersSpeakAfter(credit, i, cut);
    return [
      {
        keys,
        interventions: downstream ? [without, within] : [],
        run: async (read) => {
          const result = new Map<string, number>();
          if (!downstream) {
            // Everyone else spoke before i: their outputs are the logged ones on both sides, no call needed.
            for (const key of keys) result.set(key, 0);
            return result;
          }
          const [a, b] = await Promise.all([
            replayConversations(context, read.episode, within),
            replayConversations(context, read.episode, without),
          ]);
          credit.agents.forEach((other, j) => {
            if (j === i) return;
            const moved = outputMoves(read.base, a, b, j, cut, context);
            result.set(outputKey(removed.agentId, other.agentId), moved.distance);
            result.set(answerKey(removed.agentId, other.agentId), moved.changed);
          });
          return result;
        },
      },
    ];
  });
}

function othersSpeakAfter(credit: CreditEpisode, agent: number, cut: number): boolean {
  return credit.messageAuthors.some((author, seq) => seq > cut && author !== agent);
}

/**
 * Agent `j`'s output from the cut on, with the removed agent (`withAgent`) and without it
 * (`withoutAgent`), sample by sample: the mean token-set distance and the share of samples whose
 * final answer of `j` differs. The prefix before the cut is the same on both sides.
 */
function outputMoves(
  base: EvaluatorEpisode,
  withAgent: readonly ConversationMessage[][],
  withoutAgent: readonly ConversationMessage[][],
  j: number,
  cut: number,
  context: ReplayContext,
): { distance: number; changed: number } {
  const name = base.agents[j] ?? '';
  const samples = Math.min(withAgent.length, withoutAgent.length);
  let distance = 0;
  let changed = 0;
  for (let s = 0; s < samples; s++) {
    const [a, b] = [withAgent[s] ?? [], withoutAgent[s] ?? []];
    distance += tokenSetDistance(outputOf(a.slice(cut), name), outputOf(b.slice(cut), name));
    const answer = (c: readonly ConversationMessage[]) =>
      coalitionAnswer(replayedEvaluatorEpisode(base, c), 1n << BigInt(j), context.checker);
    if (answer(a) !== answer(b)) changed++;
  }
  return samples === 0 ? { distance: NaN, changed: NaN } : { distance: distance / samples, changed: changed / samples };
}

function outputOf(messages: readonly ConversationMessage[], agent: string): string {
  return messages
    .filter((m) => m.agent === agent)
    .map((m) => m.content)
    .join('\n');
}
