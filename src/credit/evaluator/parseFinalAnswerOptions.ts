import type { Mechanism } from '../../core/runManifest';
import { err, ok, type Result } from '../../core/result';
import type { ExtractionMode } from './extractAnswer';
import type { FinalAnswerAggregation, FinalAnswerOptions } from './finalAnswerEvaluator';
import type { AnswerNormalisation } from './normaliseAnswer';

const extractions: readonly ExtractionMode[] = ['strict-boxed', 'gsm8k', 'last-number'];
const aggregations: readonly FinalAnswerAggregation[] = ['last', 'vote', 'vote-ties-none', 'selected'];
const flags = ['stripThousands', 'stripCurrency', 'stripTrailingZeros', 'foldCase', 'foldWhitespace'] as const;
const knownKeys = ['extraction', 'extract', 'aggregation', 'ties', ...flags];

/** The aggregation a mechanism implies when run.json's evaluator options do not name one. */
const mechanismAggregation: Readonly<Record<Mechanism, FinalAnswerAggregation>> = {
  pipeline: 'last',
  debate: 'vote',
  vote: 'vote',
  routed: 'selected',
};

/**
 * Reads the `options` of a run.json evaluator `{kind: 'builtin', name: 'final-answer', options}`
 * into {@link FinalAnswerOptions} (credit-methods.md §6.2). Keys, all optional (`null` = absent):
 *
 * * `extraction` (alias `extract`): `strict-boxed` | `gsm8k` | `last-number` (underscores accepted,
 *   e.g. `last_number`); default `gsm8k`;
 * * `aggregation`: `last` | `vote` | `vote-ties-none` | `selected`; `ties: 'earliest' | 'none'` may
 *   refine `vote`. Default: from `mechanism` (pipeline → `last`; vote, debate → `vote`; routed →
 *   `selected`), else `last`;
 * * booleans `stripThousands`, `stripCurrency`, `stripTrailingZeros`, `foldCase`, `foldWhitespace`.
 *
 * Unknown keys are errors (a misspelt option would silently change every score), as are values of
 * the wrong type or outside the lists above.
 */
export function parseFinalAnswerOptions(
  options: Readonly<Record<string, unknown>> | undefined,
  mechanism?: Mechanism,
): Result<FinalAnswerOptions> {
  const given = Object.fromEntries(
    Object.entries(options ?? {}).filter(([, value]) => value !== null && value !== undefined),
  );
  const unknown = Object.keys(given).find((key) => !knownKeys.includes(key));
  if (unknown !== undefined)
    return err(`final-answer options: unknown option '${unknown}' (known: ${knownKeys.join(', ')})`);
  const extraction = parseExtraction(given);
  if (!extraction.ok) return extraction;
  const aggregation = parseAggregation(given, mechanism);
  if (!aggregation.ok) return aggregation;
  const normalisation: Partial<Record<keyof AnswerNormalisation, boolean>> = {};
  for (const flag of flags) {
    const value = given[flag];
    if (value === undefined) continue;
    if (typeof value !== 'boolean')
      return err(`final-answer options: ${flag} must be true or false, got ${JSON.stringify(value)}`);
    normalisation[flag] = value;
  }
  return ok({ extraction: extraction.value, aggregation: aggregation.value, ...normalisation });
}

function parseExtraction(given: Record<string, unknown>): Result<ExtractionMode> {
  const { extraction, extract } = given;
  if (extraction !== undefined && extract !== undefined && extraction !== extract) {
    return err(
      `final-answer options: extraction ${JSON.stringify(extraction)} and extract ${JSON.stringify(extract)} disagree`,
    );
  }
  const value = extraction ?? extract ?? 'gsm8k';
  const mode = typeof value === 'string' ? extractions.find((m) => m === value.replace(/_/g, '-')) : undefined;
  if (mode === undefined)
    return err(`final-answer options: extraction ${JSON.stringify(value)} is not one of ${extractions.join(', ')}`);
  return ok(mode);
}

function parseAggregation(
  given: Record<string, unknown>,
  mechanism: Mechanism | undefined,
): Result<FinalAnswerAggregation> {
  const value = given.aggregation ?? (mechanism === undefined ? 'last' : mechanismAggregation[mechanism]);
  const aggregation = typeof value === 'string' ? aggregations.find((a) => a === value.replace(/_/g, '-')) : undefined;
  if (aggregation === undefined)
    return err(`final-answer options: aggregation ${JSON.stringify(value)} is not one of ${aggregations.join(', ')}`);
  const { ties } = given;
  if (ties === undefined) return ok(aggregation);
  if (aggregation !== 'vote' && aggregation !== 'vote-ties-none')
    return err(`final-answer options: ties applies to aggregation 'vote' only, not '${aggregation}'`);
  if (ties === 'none') return ok('vote-ties-none');
  if (ties === 'earliest' && aggregation === 'vote') return ok('vote');
  return err(
    `final-answer options: ties ${JSON.stringify(ties)} must be 'earliest' or 'none' (and agree with aggregation '${aggregation}')`,
  );
}
