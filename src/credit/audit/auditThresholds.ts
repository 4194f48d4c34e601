import { err, ok, type Result } from '../../core/result';

/** Thresholds of the idle / free-rider audit (credit-methods.md §5.2–§5.4; product-targets.md T10). */
export interface AuditThresholds {
  /** Verdict tolerance in reward units; absent → `max(0.02, 0.05·R̄)` per window (§5.2). */
  epsilon?: number;
  /** Episodes an audit window pools before a verdict (§5.2: sd 0.3, ε 0.05 needs 98). */
  minEpisodesPerWindow: number;
  /** Level of the trend tests (§5.3). */
  alpha: number;
  /** Credit share that makes an agent the sole performer (§5.2). */
  dominantShare: number;
  /** ROUGE-L F1 / 5-gram containment at which a message copies its partner (§5.4). */
  copyThreshold: number;
  /** Content tokens at or below which a message is content-free (§5.4). */
  minTokens: number;
  /**
   * Mean team reward from which an idle agent "shares a reward the team earns" and is a free-rider
   * (§5.2); below it, the team mostly fails and the agent is only idle.
   */
  freeRiderMinReward: number;
}

/** The defaults of credit-methods.md §5 and product-targets.md T10 (frozen: copy before changing). */
export const defaultAuditThresholds: AuditThresholds = Object.freeze({
  minEpisodesPerWindow: 100,
  alpha: 0.05,
  dominantShare: 0.9,
  copyThreshold: 0.8,
  minTokens: 5,
  freeRiderMinReward: 0.1,
});

type Rule = {
  readonly integer?: boolean;
  readonly min: number;
  readonly max: number;
  readonly minOpen?: boolean;
  readonly maxOpen?: boolean;
};

const rules: Readonly<Record<keyof AuditThresholds, Rule>> = {
  epsilon: { min: 0, max: Infinity, minOpen: true, maxOpen: true },
  minEpisodesPerWindow: { integer: true, min: 2, max: Number.MAX_SAFE_INTEGER },
  alpha: { min: 0, max: 0.5, minOpen: true, maxOpen: true },
  dominantShare: { min: 0.5, max: 1, minOpen: true },
  copyThreshold: { min: 0, max: 1, minOpen: true },
  minTokens: { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER },
  freeRiderMinReward: { min: 0, max: Infinity, maxOpen: true },
};

/**
 * Reads audit thresholds from settings or CLI flags (credit-methods.md §5; T10) over
 * {@link defaultAuditThresholds}. Every key is optional (`null` / `undefined` = default). Values are
 * numbers, or strings holding one (CLI flags: `"0.05"`). Ranges: `epsilon` > 0;
 * `minEpisodesPerWindow` an integer ≥ 2; `alpha` in (0, 0.5); `dominantShare` in (0.5, 1];
 * `copyThreshold` in (0, 1]; `minTokens` an integer ≥ 0; `freeRiderMinReward` ≥ 0. Unknown keys,
 * wrong types and values out of range are errors naming the key, the value and the valid range.
 */
export function parseAuditThresholds(input: Readonly<Record<string, unknown>> | undefined): Result<AuditThresholds> {
  const thresholds: AuditThresholds = { ...defaultAuditThresholds };
  for (const [key, raw] of Object.entries(input ?? {})) {
    if (raw === null || raw === undefined) continue;
    if (!isThresholdKey(key))
      return err(`audit thresholds: unknown setting '${key}' (known: ${Object.keys(rules).join(', ')})`);
    const value = parseValue(key, raw);
    if (!value.ok) return value;
    thresholds[key] = value.value;
  }
  return ok(thresholds);
}

function isThresholdKey(key: string): key is keyof AuditThresholds {
  return Object.hasOwn(rules, key);
}

function parseValue(key: keyof AuditThresholds, raw: unknown): Result<number> {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || Number.isNaN(value))
    return err(`audit thresholds: ${key} must be a number, got ${JSON.stringify(raw)}`);
  const rule = rules[key];
  const aboveMin = rule.minOpen === true ? value > rule.min : value >= rule.min;
  const belowMax = rule.maxOpen === true ? value < rule.max : value <= rule.max;
  if (rule.integer === true && !Number.isInteger(value))
    return err(`audit thresholds: ${key} must be an integer, got ${value}`);
  if (!aboveMin || !belowMax || !Number.isFinite(value))
    return err(`audit thresholds: ${key} must be in ${describeRange(rule)}, got ${value}`);
  return ok(value);
}

function describeRange(rule: Rule): string {
  const upper = rule.max >= Number.MAX_SAFE_INTEGER ? '∞)' : `${rule.max}${rule.maxOpen === true ? ')' : ']'}`;
  return `${rule.minOpen === true ? '(' : '['}${rule.min}, ${upper}`;
}
