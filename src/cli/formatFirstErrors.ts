import type { EpisodeCreditReport } from '../engine/credit/creditJob';

/** A failed episode's first error (credit-methods.md §3.13) next to the blame labels it logs. */
export interface FirstErrorReport {
  readonly episode: string;
  readonly where: string;
  /**
   * 0-based index of the first message whose addition dropped the prefix value by δ or more; with
   * replayed prefix values, of the message after which the episode was lost for good.
   */
  readonly message: number | null;
  readonly agent: string | null;
  readonly harmful: readonly number[];
  readonly labels: readonly { kind: string; agent: string | null; message: number | null; reason: string | null }[];
}

/** The first-error report of one episode, when the pass computed one (prefix credit of a failure). */
export function firstErrorReport(report: EpisodeCreditReport): FirstErrorReport | undefined {
  const found = report.messages?.firstError;
  if (!found) return undefined;
  const e = report.episode;
  const author = found.index === undefined ? undefined : e.messageAuthors[found.index];
  return {
    episode: e.externalId,
    where: `${e.uri}:${e.line}`,
    message: found.index ?? null,
    agent: author === undefined ? null : (e.agents[author]?.name ?? null),
    harmful: found.harmful,
    labels: e.labels.map((l) => ({ kind: l.kind, agent: l.agent, message: l.messageSeq, reason: l.reason })),
  };
}

/**
 * One line on first errors: how many failed episodes got one, and — where episodes carry blame
 * labels anchored on a message — how often the computed first error names the labelled agent and
 * the labelled message (the agent- and step-level accuracy used to score Who&When).
 */
export function formatFirstErrors(reports: readonly FirstErrorReport[]): string {
  const located = reports.filter((r) => r.message !== null);
  const labelled = reports.filter((r) => r.labels.some((l) => l.message !== null || l.agent !== null));
  const agentHits = labelled.filter((r) => r.labels.some((l) => l.agent !== null && l.agent === r.agent)).length;
  const stepHits = labelled.filter((r) => r.labels.some((l) => l.message !== null && l.message === r.message)).length;
  const agreement =
    labelled.length > 0
      ? `; against ${labelled.length} blame label(s): agent ${agentHits}/${labelled.length}, message ${stepHits}/${labelled.length}`
      : '';
  return `  first errors: located in ${located.length} of ${reports.length} failed episodes${agreement}`;
}
