import type { EpisodeCreditView, EvaluatorOptionView, EvaluatorView } from '../../../src/protocol/episodePanel';
import type { ViewMethod } from '../../../src/protocol/viewData';
import { formatTimestamp } from '../../../src/core/timestamp';
import { formatInt } from '../kit/format';
import { methodLabels } from '../methodLabels';

// Which notices the credit area shows: loading, not computed yet, approximate, no evaluator,
// failed. Pure: no DOM.

export interface Notice {
  /** CSS flavour and urgency. */
  readonly level: 'info' | 'warning' | 'error';
  /** Stable key for styling and tests: loading | error | not-computed | no-evaluator | failed | not-identifiable | approximate. */
  readonly key: string;
  readonly title: string;
  readonly text: string;
  /** Offer the Recompute action next to it. */
  readonly offerRecompute: boolean;
}

export interface CreditState {
  readonly method: ViewMethod;
  readonly credit: EpisodeCreditView | null;
  readonly loading: boolean;
  /** Why the credit request failed. */
  readonly error: string | null;
}

const logged = 'Methods that use logged values (such as Shared reward) still work.';

/** The notices for `state` and the episode's `evaluator`, most important first. */
export function creditNotices(state: CreditState, evaluator: EvaluatorView): Notice[] {
  const label = methodLabels[state.method];
  if (state.error !== null) return [notice('error', 'error', 'Credit unavailable', state.error, true)];
  const { credit } = state;
  if (credit === null || credit.method !== state.method)
    return state.loading
      ? [notice('info', 'loading', 'Loading credit…', `${label} credit of this episode.`, false)]
      : [];
  const notices: Notice[] = [];
  switch (credit.status) {
    case 'not-computed':
      notices.push(
        notice(
          'info',
          'not-computed',
          'Not computed yet',
          `No ${label} credit is stored for this episode. Recompute runs the credit engine on it.`,
          true,
        ),
      );
      break;
    case 'no-evaluator':
      notices.push(
        notice(
          'warning',
          'no-evaluator',
          'No evaluator configured',
          `${credit.reason ?? evaluator.reason ?? `${label} needs coalition rewards that are neither logged nor computable.`} ${logged}`,
          false,
        ),
      );
      break;
    case 'failed':
      notices.push(
        notice(
          'error',
          'failed',
          'Credit computation failed',
          credit.reason ?? 'The last credit pass failed on this episode.',
          true,
        ),
      );
      break;
    case 'not-identifiable': {
      const remedy = credit.remedy ? ` What would answer it: ${credit.remedy}.` : '';
      const reason = credit.reason ?? `The data cannot answer ${label} for this episode.`;
      notices.push(notice('warning', 'not-identifiable', 'Not identifiable', `${asSentence(reason)}${remedy}`, false));
      break;
    }
    case 'computed':
      break;
  }
  if (credit.approximate) {
    notices.push(
      notice(
        'warning',
        'approximate',
        'Approximate',
        'Some values remove an agent whose output later agents read, without re-generating them: the downstream text still carries what was removed. No verdict is drawn from them; a replay evaluator or logged counterfactuals would make them exact.',
        false,
      ),
    );
  }
  return notices;
}

/** "computed from logged values · computed 3 minutes ago (Dec 1, 2026, 7:44 PM)" style provenance of computed credit, or ''. */
export function creditProvenance(credit: EpisodeCreditView | null, now: Date = new Date()): string {
  if (!credit || credit.status !== 'computed') return '';
  const parts: string[] = [];
  if (credit.valueStatus) parts.push(credit.valueStatus);
  if (credit.source !== null) parts.push(`values ${credit.source}`);
  if (credit.computedAt !== null) parts.push(`computed ${formatTimestamp(credit.computedAt, now)}`);
  const samples = credit.agents.map((a) => a.n).filter((n): n is number => n !== null);
  if (samples.length > 0) parts.push(`n = ${formatInt(Math.max(...samples))}`);
  return parts.join(' · ');
}

/** An evaluator as the Recompute menu names it: `Replay on 127.0.0.1:8000`, `Built-in final-answer`. */
export function evaluatorOptionLabel(option: EvaluatorOptionView): string {
  return option.description.charAt(0).toUpperCase() + option.description.slice(1);
}

/**
 * The line under the Recompute action about the evaluator a recompute would use (`chosen`, when
 * the menu offers several: a choice other than the default is described, the default's state kept).
 */
export function evaluatorLine(
  evaluator: EvaluatorView,
  chosen?: EvaluatorOptionView,
): { text: string; warning: boolean } {
  const description = chosen?.description ?? evaluator.description;
  if (evaluator.configured) {
    const replay = chosen?.kind === 'replay' || (chosen === undefined && evaluator.kind === 'replay');
    const note = replay ? ' (its cost is estimated and confirmed before any call)' : '';
    return { text: `Evaluator: ${description}${note}`, warning: false };
  }
  return {
    text: `No evaluator configured${evaluator.reason ? `: ${asSentence(evaluator.reason)}` : '.'} Recompute uses logged values only.`,
    warning: true,
  };
}

function notice(level: Notice['level'], key: string, title: string, text: string, offerRecompute: boolean): Notice {
  return { level, key, title, text, offerRecompute };
}

/** `text` ending as a sentence: a full stop added unless it already ends with one (or ! or ?). */
function asSentence(text: string): string {
  return /[.!?]$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}
