import { valuesFor } from '../../../src/store/checkedBinding';
import type { BindValue, Db } from '../../../src/store/database';

/**
 * The details of `EXPLAIN QUERY PLAN <sql>`, bound with the values of `pool` that the statement
 * names (the store binds strictly: a value without a parameter is an error); a statement with
 * positional parameters takes `positional`.
 */
export function queryPlan(
  db: Db,
  sql: string,
  pool: Readonly<Record<string, BindValue>>,
  positional: readonly BindValue[] = [],
): string[] {
  const named = valuesFor(sql, pool);
  const statement = db.prepare<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`);
  return (Object.keys(named).length > 0 ? statement.all(named) : statement.all(...positional)).map((r) => r.detail);
}

/** A value for every parameter of the dashboard's statements (run 1, loo under hash h, no filter). */
export const planParams: Readonly<Record<string, BindValue>> = {
  run: 1,
  method: 'loo',
  hash: 'h',
  epsilon: 0.02,
  stepFrom: null,
  stepTo: null,
  group: null,
  rewardMin: null,
  rewardMax: null,
  flag: null,
  agent: null,
  search: null,
  split: 'train',
  creditAgent: null,
  creditMin: null,
  creditMax: null,
  sortAgent: 'verifier',
  limit: 500,
  offset: 0,
  countLimit: 100,
  only: '[1, 2]',
  after: 3,
};
