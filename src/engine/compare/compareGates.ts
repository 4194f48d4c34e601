import type { RunComparison } from '../../core/runComparison';
import { err, ok, type Result } from '../../core/result';
import { flagKinds } from '../../core/auditReport';

/**
 * A CI gate on a comparison (`--fail-on`): an agent's credit share (0..1) or credit (reward units)
 * fell by more than `by` from A to B, or B carries a flag of `kind`.
 */
export type CompareGate =
  | { readonly kind: 'share-drop'; readonly by: number }
  | { readonly kind: 'credit-drop'; readonly by: number }
  | { readonly kind: 'flag'; readonly flag: string };

/**
 * Parses `share-drop=X,credit-drop=X,flag=KIND` (any subset, in any order, `flag` repeatable);
 * X is a non-negative number. An error names the part that is wrong.
 */
export function parseCompareGates(text: string): Result<CompareGate[]> {
  const gates: CompareGate[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const [name, value = ''] = part.split('=', 2);
    if (name === 'flag') {
      if (!(flagKinds as readonly string[]).includes(value))
        return err(`"${part}": flag=KIND takes one of ${flagKinds.join(', ')}`);
      gates.push({ kind: 'flag', flag: value });
    } else if (name === 'share-drop' || name === 'credit-drop') {
      const by = Number(value);
      if (value.trim() === '' || !(by >= 0)) return err(`"${part}": ${name}=X takes a number ≥ 0`);
      gates.push({ kind: name, by });
    } else return err(`"${part}": gates are share-drop=X, credit-drop=X and flag=KIND`);
  }
  return gates.length > 0 ? ok(gates) : err('no gate given (share-drop=X, credit-drop=X, flag=KIND)');
}

/**
 * The gates that trip, each as a sentence naming the agent and the figures. A drop is read on the
 * point estimate `B − A` (NaN never trips: an agent without values on both sides is in the notes);
 * a flag gate trips on a flag present on B (appeared or kept).
 */
export function trippedGates(comparison: RunComparison, gates: readonly CompareGate[]): string[] {
  return gates.flatMap((gate) => {
    if (gate.kind === 'flag')
      return comparison.flags
        .filter((f) => f.kind === gate.flag && f.change !== 'disappeared')
        .map((f) => `flag=${gate.flag}: ${f.agent || 'the run'} is flagged ${f.kind} on B (${f.change})`);
    return comparison.agents.flatMap((a) => {
      const drop = gate.kind === 'share-drop' ? a.shareA - a.shareB : a.credit.meanA - a.credit.meanB;
      if (!(drop > gate.by)) return [];
      const what = gate.kind === 'share-drop' ? 'credit share' : 'mean credit';
      return [`${gate.kind}=${String(gate.by)}: ${a.agent}'s ${what} fell by ${drop.toFixed(3)}`];
    });
  });
}
