/**
 * Which stored parameter set stands for a method on a run — what the dashboard, the summaries, the
 * exports and the tools read when asked for "the run's loo credit": of the sets the credit pass's
 * coverage aggregates count (credit_step_coverage), the one covering the most episodes, the newest
 * (`newest`, an SQL expression) first among equals; `newest` itself when none is counted (an index
 * whose aggregates are not built yet). A recompute of a few episodes under other parameters (the
 * Episode view's) is the newest credit, but does not take the run's figures over from a whole-run
 * pass; a later whole-run pass does.
 *
 * An SQL expression over `run`, `method` and `newest` (expressions or parameters) in schema `schema`.
 */
export function standingParamsSql(schema: string, run: string, method: string, newest: string): string {
  return `coalesce((SELECT cv.params_hash FROM ${schema}.credit_step_coverage cv WHERE cv.run_id = ${run} AND cv.method = ${method}
    GROUP BY cv.params_hash ORDER BY sum(cv.drawn + cv.approximate + cv.unidentified + cv.failed) DESC, cv.params_hash = ${newest} DESC
    LIMIT 1), ${newest})`;
}
