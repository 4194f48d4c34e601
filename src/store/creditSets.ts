/**
 * A run's parameter set of one method as its `credit_set` id (migration 0023), a scalar subquery
 * of named parameters: the credit rows of one set are one range of `credit_value`'s indexes, read
 * in their order (a page sorted by an agent's credit stops at the page's end).
 */
export function creditSetId(run = ':run', method = ':method', hash = ':hash'): string {
  return `(SELECT set_id FROM credit_set WHERE method = ${method} AND params_hash = ${hash} AND run_id = ${run})`;
}

/**
 * The parameter set of each run's method written last, in schema `schema`: run_id, method,
 * params_hash. Row ids grow with every insert and a pass replaces its episodes' rows, so the set
 * with the largest `newest` holds the latest pass; a set whose rows are all gone does not count.
 */
export function newestSetsSql(schema = 'main'): string {
  return `SELECT s.run_id, s.method, s.params_hash FROM ${schema}.credit_set s
    WHERE s.newest = (SELECT max(t.newest) FROM ${schema}.credit_set t
      WHERE t.run_id = s.run_id AND t.method = s.method AND EXISTS (SELECT 1 FROM ${schema}.credit_value v WHERE v.set_id = t.set_id))`;
}
