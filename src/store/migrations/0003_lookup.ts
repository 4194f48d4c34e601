/** Schema 3: "Open Episode by Id" looks episodes up by their trace id across runs. */
export const lookup0003 = `
CREATE INDEX episode_external ON episode(external_id);
`;
