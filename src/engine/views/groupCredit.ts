import type { RolloutAgentCredit } from '../../protocol/groupPanel';
import type { GroupCreditErrorRow, GroupRolloutRow } from '../../store/groupViewRepository';
import { latestErrors, minRolloutsForAdvantage, type MethodCredit } from './groupSignals';
import type { CreditStatus, ViewMethod } from './viewTypes';

// The chosen method's credit over a GRPO group (groupViewService.ts): each rollout's stored values,
// failures and what is missing, in words where the store has no number.

/** One rollout's standing under the chosen method. */
export interface RolloutCredit {
  readonly status: CreditStatus;
  readonly reason: string | null;
  readonly remedy: string | null;
  readonly credit: readonly RolloutAgentCredit[];
}

const noCredit: RolloutAgentCredit = { value: null, status: null, advantage: null };

/** The advantage a credit pass stored for (rollout, agent): none where fewer than two rollouts have the agent's value. */
export function storedAdvantage(credit: MethodCredit | undefined, episodeId: number, agent: string): number | null {
  if (!credit) return null;
  let values = 0;
  for (const agents of credit.byRollout.values()) if (agents.get(agent)?.value != null) values++;
  return values < minRolloutsForAdvantage ? null : (credit.byRollout.get(episodeId)?.get(agent)?.advantage ?? null);
}

/** What a rollout's credit is read from: the method's stored credit, its failures, the reward's advantages (for `shared`). */
export interface StoredSignals {
  readonly credit: MethodCredit | undefined;
  readonly errors: readonly GroupCreditErrorRow[];
  readonly rewardAdvantages: readonly (number | null)[];
}

/** Each rollout's credit under `method`: stored, failed, not identifiable, or not computed yet. */
export function rolloutCredits(
  rows: readonly GroupRolloutRow[],
  agents: readonly string[],
  method: ViewMethod,
  { credit, errors, rewardAdvantages }: StoredSignals,
): RolloutCredit[] {
  const failures = latestErrors(errors, method);
  return rows.map((r, i) => {
    const stored = credit?.byRollout.get(r.episodeId);
    const error = failures.get(r.episodeId);
    const storedAt = credit?.computedAt.get(r.episodeId);
    if (error && (storedAt === undefined || error.computedAt > storedAt))
      return {
        status: errorStatus(error),
        reason: error.reason,
        remedy: error.remedy,
        credit: agents.map(() => noCredit),
      };
    if (stored)
      return {
        status: 'computed',
        reason: null,
        remedy: null,
        credit: agents.map((a) => storedCredit(stored.get(a), storedAdvantage(credit, r.episodeId, a))),
      };
    if (method === 'shared' && r.reward !== null) {
      const value = { value: r.reward, status: 'exact', advantage: rewardAdvantages[i] ?? null };
      return { status: 'computed', reason: null, remedy: null, credit: agents.map(() => value) };
    }
    const reason =
      method === 'shared' ? 'the rollout logs no team reward' : `${method} credit is not computed for this rollout yet`;
    return { status: 'not-computed', reason, remedy: null, credit: agents.map(() => noCredit) };
  });
}

function storedCredit(
  row: { value: number | null; status: string } | undefined,
  advantage: number | null,
): RolloutAgentCredit {
  if (!row || row.value === null) return noCredit;
  return { value: row.value, status: row.status, advantage };
}

function errorStatus(error: GroupCreditErrorRow): CreditStatus {
  return error.status === 'not-identifiable' ? 'not-identifiable' : 'failed';
}

/** What the group's credit under `method` says when it is not whole: coverage, and what would answer. */
export function noteCredit(
  method: ViewMethod,
  rollouts: number,
  credited: number,
  credits: readonly RolloutCredit[],
  notes: string[],
): void {
  if (rollouts === 0 || credited === rollouts) return;
  const unidentified = credits.filter((c) => c.status === 'not-identifiable').length;
  const failed = credits.filter((c) => c.status === 'failed').length;
  const missing = rollouts - credited - unidentified - failed;
  const parts = [`${method} credit covers ${String(credited)} of ${String(rollouts)} rollouts`];
  if (missing > 0)
    parts.push(`${String(missing)} not computed yet: Recompute Credit… (Runs view or dashboard) computes them`);
  if (failed > 0) parts.push(`${String(failed)} failed`);
  if (unidentified > 0)
    parts.push(`${String(unidentified)} not identifiable from the data (see each rollout's remedy)`);
  notes.push(`${parts.join('; ')}.`);
}

export function groupStatus(credits: readonly RolloutCredit[], credited: number): CreditStatus {
  if (credited > 0) return 'computed';
  const statuses = new Set(credits.map((c) => c.status));
  if (statuses.size === 1) return credits[0]?.status ?? 'not-computed';
  return 'not-computed';
}
