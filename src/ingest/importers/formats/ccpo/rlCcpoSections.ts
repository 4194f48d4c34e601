import { err, ok, type Result } from '../../../../core/result';
import { isRecord } from '../common/rlFields';

/** The three texts CCPO writes into one verl `output` (trace-formats.md §2.2). */
export interface CcpoSections {
  /** `[Thinker]`: the Thinker's thought. */
  readonly thought: string;
  /** `[Solver joint]` (SEPO: `[Solver]`): the Solver's answer given the thought. */
  readonly joint: string;
  /** `[Solver solo]`: the Solver's answer to the problem alone (the Thinker removed). */
  readonly solo?: string;
}

const headerLine = /^\[(Thinker|Solver joint|Solver solo|Solver)\][ \t]*\r?$/gm;

interface Header {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Splits a CCPO / SEPO output, `"[Thinker]\n{thought}\n\n[Solver joint]\n{answer}\n\n[Solver solo]\n{solo}"`,
 * into its sections. Headers count only on a line of their own. The thought runs to the first
 * Solver header after `[Thinker]`; the joint answer to the *last* `[Solver solo]` header (an answer
 * that quotes a header keeps it). The separating blank lines are dropped.
 */
export function ccpoSections(output: string): Result<CcpoSections> {
  const headers: Header[] = [...output.matchAll(headerLine)].map((m) => ({
    name: m[1] ?? '',
    start: m.index,
    end: m.index + m[0].length,
  }));
  const thinker = headers.find((h) => h.name === 'Thinker');
  if (!thinker)
    return err('"output": no "[Thinker]" section (expected CCPO\'s "[Thinker]\\n…\\n\\n[Solver joint]\\n…")');
  const joint = headers.find((h) => h.start > thinker.start && (h.name === 'Solver joint' || h.name === 'Solver'));
  if (!joint) return err('"output": no "[Solver joint]" (or "[Solver]") section after "[Thinker]"');
  const solo = headers.filter((h) => h.start > joint.start && h.name === 'Solver solo').pop();
  return ok({
    thought: sectionText(output.slice(thinker.end, joint.start)),
    joint: sectionText(output.slice(joint.end, solo?.start ?? output.length)),
    ...(solo ? { solo: sectionText(output.slice(solo.end)) } : {}),
  });
}

function sectionText(text: string): string {
  return text.replace(/^\r?\n/, '').replace(/[\r\n]+$/, '');
}

/** True when a verl-shaped record is CCPO's: its output has `[Thinker]` and a Solver section, or it logs joint and solo rewards. */
export function hasCcpoMarkers(record: unknown): boolean {
  if (!isRecord(record)) return false;
  const output = record['output'];
  if (
    typeof output === 'string' &&
    /^\[Thinker\][ \t]*\r?$/m.test(output) &&
    /^\[Solver(?: joint| solo)?\][ \t]*\r?$/m.test(output)
  )
    return true;
  return 'joint_reward' in record && 'solo_reward' in record;
}
