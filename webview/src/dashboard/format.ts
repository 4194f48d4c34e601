/** `0.8123` → `0.812`; null → `—`. */
export function formatReward(value: number | null): string {
  return value === null ? '—' : value.toFixed(3);
}

/** An integer or `—`. */
export function formatInt(value: number | null): string {
  return value === null ? '—' : value.toLocaleString();
}

/** Human names of the credit methods for the method dropdown. */
export const methodLabels: Readonly<Record<string, string>> = {
  shared: 'Shared reward',
  loo: 'Leave-one-out',
  shapley: 'Shapley (exact)',
  'shapley-mc': 'Shapley (Monte Carlo)',
  routing: 'Routing',
  prefix: 'Prefix (per message)',
  owen: 'Owen (per message)',
};
