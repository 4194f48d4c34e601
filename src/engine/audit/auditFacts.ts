/** One agent in one episode, as the audit sees it. */
export interface AgentFacts {
  readonly name: string;
  readonly declared: boolean;
  readonly messages: number;
  /** Logged token count, else characters / 4 (a rough token estimate, only for shares). */
  readonly tokens: number;
  /** Marginal contribution (LOO or Shapley) from the credit pass; null when it could not be computed. */
  readonly credit: number | null;
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
