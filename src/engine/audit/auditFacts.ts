/** One agent in one episode, as the audit sees it. */
export interface AgentFacts {
  readonly name: string;
  readonly declared: boolean;
  readonly messages: number;
  /** Logged token count, else characters / 4 (a rough token estimate, only for shares). */
  readonly tokens: number;
  /**
   * Marginal contribution (LOO or Shapley) from the credit pass, only when it can support a verdict
   * (exact or estimated); null otherwise, with the reason in `creditStatus`.
   */
  readonly credit: number | null;
  /** exact | estimated | approximate, or none (no credit row: failed or not identifiable). */
  readonly creditStatus: string;
  /** llm, tool, human, … (docs/trace-format.md §2.2). */
  readonly kind: string;
  /** True when the agent is trained (never a human, tool, environment, user simulator or system prompt). */
  readonly trainable: boolean;
  /** Content-free messages and messages copying a partner (null when the text was not read). */
  readonly emptyMessages: number | null;
  readonly copiedMessages: number | null;
  readonly finalAnswerFirst: boolean | null;
}

/** One episode, as the audit sees it. */
export interface EpisodeFacts {
  readonly externalId: string;
  readonly step: number;
  readonly reward: number | null;
  readonly uri: string;
  readonly line: number;
  readonly agents: readonly AgentFacts[];
}
