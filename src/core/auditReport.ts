/** The verdicts an audit can raise (credit-methods.md §5.2). */
export type FlagKind = 'silent' | 'idle' | 'free-rider' | 'dominant' | 'decoupling';

export const flagKinds: readonly FlagKind[] = ['silent', 'idle', 'free-rider', 'dominant', 'decoupling'];

/** One raised flag with the evidence that produced it. */
export interface AuditFlag {
  readonly kind: FlagKind;
  readonly agent?: string;
  readonly scope: 'run' | 'step' | 'episode';
  /** Inclusive training-step range the flag covers. */
  readonly steps?: readonly [number, number];
  readonly episode?: string;
  /** Where to point a reader: the trace line of the first episode concerned. */
  readonly location?: { readonly uri: string; readonly line: number };
  /** Every trace line the flag concerns when there are several (each episode a silent agent is silent in). */
  readonly locations?: readonly { readonly uri: string; readonly line: number; readonly episode: string }[];
  readonly evidence: Readonly<Record<string, unknown>>;
}

/** An agent's standing over a run. */
export interface AgentAudit {
  readonly agent: string;
  readonly episodes: number;
  readonly meanCredit: number | null;
  readonly ci: readonly [number, number] | null;
  readonly creditShare: number | null;
  readonly tokenShare: number;
  readonly emptyRate: number | null;
  readonly copyRate: number | null;
  /** Share of episodes in which this agent's message is the first to contain the final answer. */
  readonly finalAnswerShare: number | null;
  readonly flags: readonly FlagKind[];
}

/** Per training step: team reward, and per agent credit share, idle rate and flag count. */
export interface StepTrend {
  readonly step: number;
  readonly episodes: number;
  readonly teamReward: number;
  readonly agents: Readonly<
    Record<string, { readonly creditShare: number | null; readonly idleRate: number | null; readonly flags: number }>
  >;
}

/** The audit of one run. */
export interface RunAudit {
  readonly run: string;
  readonly method: string;
  readonly agents: readonly AgentAudit[];
  readonly flags: readonly AuditFlag[];
  readonly trends: readonly StepTrend[];
  /** Verdicts that could not be reached, each with the reason (e.g. no counterfactual data). */
  readonly unreachable: readonly string[];
}
