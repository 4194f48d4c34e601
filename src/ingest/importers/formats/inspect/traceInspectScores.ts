import { isRecord, numberOf, recordField, type JsonRecord } from '../common/json';

// Inspect scores (trace-formats.md §3.7, §6): `scores {scorer: {value, answer, explanation,
// metadata}}`; values are numbers, booleans or the strings C / I / P / N.

const letterScores: Readonly<Record<string, number>> = { C: 1, I: 0, P: 0.5, N: 0 };

/**
 * A score value as a number: numbers as they are, true / false → 1 / 0, `C`=1 `I`=0 `P`=0.5 `N`=0
 * (any case), numeric strings parsed; otherwise undefined (lists, dicts, other strings).
 */
export function inspectScoreValue(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const letter = letterScores[value.trim().toUpperCase()];
    if (letter !== undefined) return letter;
  }
  return numberOf(value);
}

/** The sample's scores: the raw values by scorer, and the team reward (the first scorer with a numeric value). */
export interface InspectScores {
  readonly raw: Readonly<Record<string, unknown>>;
  readonly reward?: number;
}

/** Reads `sample.scores`; an absent or malformed `scores` gives no reward. */
export function inspectScores(sample: JsonRecord): InspectScores {
  const scores = recordField(sample, 'scores');
  const raw: Record<string, unknown> = {};
  let reward: number | undefined;
  for (const [name, score] of Object.entries(scores ?? {})) {
    const value = isRecord(score) ? score['value'] : score;
    raw[name] = value;
    reward ??= inspectScoreValue(value);
  }
  return reward === undefined ? { raw } : { raw, reward };
}
