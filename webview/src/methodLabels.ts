import type { ViewMethod } from '../../src/protocol/viewData';

/** What each credit method is called in the views (method switchers, legends, notices). */
export const methodLabels: Readonly<Record<ViewMethod, string>> = {
  shared: 'Shared reward',
  loo: 'Leave-one-out',
  shapley: 'Shapley (exact)',
  'shapley-mc': 'Shapley (Monte Carlo)',
  routing: 'Routing',
  prefix: 'Prefix (per message)',
  owen: 'Owen (per message)',
};
