import type { ChatClientStats } from '../../core/chat';
import type { ReplayCost } from '../../credit/replay/replayCost';
import type { EvaluatorUsage } from '../../store/creditRepository';
import type { BudgetReport } from '../credit/budgetedLoo';
import { count, plural, seconds } from './format';

/** `120 calls, 4,210 prompt and 1,005 completion tokens`: what a replay pass is expected to send. */
export function replayCostText(cost: ReplayCost): string {
  return `${plural(cost.calls, 'call')}, ${count(cost.promptTokens)} prompt and ${count(cost.completionTokens)} completion tokens`;
}

/** `58 calls, 12,345 tokens, 2 retries, 0 failed, 4.10 s`: what a replay's client has spent so far. */
export function replayStatsText(stats: ChatClientStats): string {
  return `${plural(stats.calls, 'call')}, ${count(stats.promptTokens + stats.completionTokens)} tokens, ${retries(stats.retries)}, ${count(stats.failedCalls)} failed, ${seconds(stats.elapsedMs)}`;
}

/** The totals of a pass, as the report and the index keep them. */
export function replayUsageLine(usage: EvaluatorUsage): string {
  const estimate = usage.estimate ? ` (estimated ${plural(usage.estimate.calls, 'call')})` : '';
  return `model server: ${plural(usage.calls, 'call')}${estimate}, ${count(usage.promptTokens)} prompt and ${count(usage.completionTokens)} completion tokens, ${retries(usage.retries)}, ${count(usage.failedCalls)} failed calls, ${plural(usage.failedEpisodes, 'failed episode')}, ${seconds(usage.elapsedMs)} busy`;
}

/** What a budgeted pass spent against what an exact pass would have. */
export function budgetSavingText(b: BudgetReport): string {
  return `spent ${count(b.spentCost)} of ${count(b.budget)} calls; an exact pass needs ${count(b.fullCost)}: ${count(Math.max(0, b.fullCost - b.spentCost))} saved`;
}

function retries(n: number): string {
  return `${count(n)} ${n === 1 ? 'retry' : 'retries'}`;
}
