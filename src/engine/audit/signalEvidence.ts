import type { AuditFlag } from '../../core/auditReport';
import type { SplitChoice } from '../../core/split';
import { wrongWayShare } from '../../credit/signals/signDisagreement';
import type { SignalRepository } from '../../store/signalRepository';

/** What {@link withSignalEvidence} reads: the stored sign disagreement of the audit's parameter set. */
export interface SignalEvidenceSource {
  readonly signals: SignalRepository;
  readonly runId: number;
  readonly key: { readonly method: string; readonly hash: string };
  readonly split: SplitChoice;
}

/** The verdicts whose window says how the shared reward pushed the agent there. */
const windowKinds = new Set(['idle', 'free-rider']);

/**
 * The flags with, for an idle or free-rider window, the sign disagreement of the agent's samples
 * over the flagged steps (credit-methods.md §3.18) added to the evidence as `signal` when it is
 * stored: counts summed over the window's cells, the wrong-way and no-push shares of them. Other
 * flags, and windows without stored counts, are returned as they are (nothing is computed here).
 */
export function withSignalEvidence(flags: readonly AuditFlag[], source: SignalEvidenceSource): AuditFlag[] {
  return flags.map((flag) => {
    if (!windowKinds.has(flag.kind) || !flag.agent || !flag.steps) return flag;
    const counts = source.signals.window(source.runId, source.key, flag.agent, flag.steps, source.split);
    if (!counts || counts.n === 0) return flag;
    const signal = {
      method: source.key.method,
      from: flag.steps[0],
      to: flag.steps[1],
      ...counts,
      wrongWay: wrongWayShare(counts),
      noPush: counts.zero / counts.n,
      sharedOnlyShare: counts.sharedOnly / counts.n,
    };
    return { ...flag, evidence: { ...flag.evidence, signal } };
  });
}
