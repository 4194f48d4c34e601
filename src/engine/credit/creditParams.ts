import { createHash } from 'node:crypto';
import type { CreditParams } from '../../core/creditInput';

/** A method with its parameters and a stable hash of both (keys sorted), the `credit.params_hash`. */
export function creditParams(method: string, params: Readonly<Record<string, unknown>>): CreditParams {
  const canonical = JSON.stringify({ method, params }, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
  return { method, params, hash: createHash('sha256').update(canonical).digest('hex').slice(0, 16) };
}
