/**
 * Schema 17: the episode table's per-agent credit columns (issue 16). `credit_agent_sort` holds
 * one agent's agent-level credit of a parameter set in value order, so a page sorted by that
 * agent's credit ("the verifier's LOO, most negative first") reads its rows in index order and
 * stops at the page's end, instead of sorting every credited episode of the run. It covers the
 * episode id, so the page seeks each episode row only for the rows it keeps.
 */
export const agentCreditSort0015 = `
CREATE INDEX credit_agent_sort ON credit(method, params_hash, agent_id, value, episode_id) WHERE message_seq IS NULL;
`;
