/**
 * Schema 9: the Run Dashboard reads the training split by default (issue 12), so its per-step
 * aggregates filter on `episode.split`. `episode_step` gains `split` as its last column and stays
 * a covering index of those aggregates (same name and prefix, so every plan that used it still does).
 */
export const splitIndex0009 = `
DROP INDEX episode_step;
CREATE INDEX episode_step ON episode(run_id, train_step, outcome, split);
`;
