/**
 * Schema 18 (issue 15): the views' aggregates of inserted episodes are written per batch, not per row.
 *
 * Migrations 0011 (step_total, shared_step_agent) and 0013/0016 (episode_flag) kept them with a
 * trigger per inserted episode and roster row; the index writer now adds each batch with one
 * set-based statement per table over the batch's id range (insertedAggregates.ts), the same sums.
 * The delete triggers stay. IF EXISTS: an index taken back to an older schema by hand may lack them.
 */
export const batchAggregates0018 = `
DROP TRIGGER IF EXISTS step_total_insert;
DROP TRIGGER IF EXISTS shared_step_agent_insert;
DROP TRIGGER IF EXISTS episode_flag_insert;
`;
