/** `0.8123` → `0.812`; null → `—`. */
export function formatReward(value: number | null): string {
  return value === null ? '—' : value.toFixed(3);
}

/** An integer or `—`. */
export function formatInt(value: number | null): string {
  return value === null ? '—' : value.toLocaleString();
}

export { methodLabels } from '../methodLabels';
