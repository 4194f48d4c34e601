import type { EvaluatorView } from '../../../src/protocol/episodePanel';
import { h } from '../dom';
import { button } from '../kit/controls';
import { creditNotices, type CreditState } from './status';

/** The credit state notices (not computed yet, approximate, no evaluator, failed, loading). */
export function renderNotices(state: CreditState, evaluator: EvaluatorView, recompute: () => void): HTMLElement[] {
  return creditNotices(state, evaluator).map((notice) => {
    const element = h(
      'div',
      `credit-notice is-${notice.level}`,
      h('strong', 'notice-title', notice.title),
      ' ',
      h('span', 'notice-text', notice.text),
    );
    element.dataset['notice'] = notice.key;
    if (notice.offerRecompute) {
      const action = button('Recompute', recompute, 'secondary', 'Run the credit engine on this episode');
      action.classList.add('notice-action');
      element.append(action);
    }
    return element;
  });
}
