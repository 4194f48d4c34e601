import { defaultPageSize, maxPageSize } from './toolTypes';
import type { PropertySchema } from './toolInput';

// Input properties several tools share, so each reads the same everywhere.

export const runInput: PropertySchema = {
  type: 'string',
  description:
    'Run name as list_runs gives it ("" for a run at the folder root); optional when the folder has one run.',
  maxLength: 1024,
};

export const offsetInput: PropertySchema = {
  type: 'integer',
  description: 'First item of the page (0-based); a result gives nextOffset when more remain.',
  minimum: 0,
  maximum: 2 ** 31 - 1,
  default: 0,
};

export const limitInput: PropertySchema = {
  type: 'integer',
  description: `Items per page (default ${defaultPageSize}, at most ${maxPageSize}).`,
  minimum: 1,
  maximum: maxPageSize,
  default: defaultPageSize,
};

export const methodInput: PropertySchema = {
  type: 'string',
  description:
    'Credit method (docs/credit-methods.md): loo (leave-one-out, default), shapley, shapley-mc, routing, prefix, owen, shared.',
  enum: ['loo', 'shapley', 'shapley-mc', 'routing', 'prefix', 'owen', 'shared'],
  default: 'loo',
};

export const stepFromInput: PropertySchema = {
  type: 'integer',
  description: 'First training step (inclusive).',
  minimum: -1e15,
  maximum: 1e15,
};

export const stepToInput: PropertySchema = {
  type: 'integer',
  description: 'Last training step (inclusive).',
  minimum: -1e15,
  maximum: 1e15,
};

/** The paging inputs as a tool reads them after validation (defaults filled in). */
export function paging(input: Readonly<Record<string, unknown>>): { offset: number; limit: number } {
  return { offset: Number(input['offset'] ?? 0), limit: Number(input['limit'] ?? defaultPageSize) };
}

/** An optional string input, undefined when absent. */
export function optionalString(input: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}

/** An optional number input, undefined when absent. */
export function optionalNumber(input: Readonly<Record<string, unknown>>, key: string): number | undefined {
  const value = input[key];
  return typeof value === 'number' ? value : undefined;
}
