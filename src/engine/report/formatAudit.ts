import type { AuditFlag, RunAudit } from '../../core/auditReport';
import { flagKinds } from '../../core/auditReport';
import { flagMessage } from './flagEvidence';

const fixed = (n: number | null | undefined, digits = 3): string =>
  n === null || n === undefined || !Number.isFinite(n) ? '—' : n.toFixed(digits);

/** What each flag kind means, for terminal output and SARIF rule descriptions. */
export const flagDescriptions: Readonly<Record<string, string>> = {
  silent: 'declared in the roster but never acts',
  idle: 'acts but its marginal contribution is statistically indistinguishable from zero while the team fails',
  'free-rider': 'idle while sharing a reward the team earns: it consumes budget and credit without contributing',
  dominant: 'carries the task alone: its share of the positive credit reaches the dominance threshold',
  decoupling: 'the team reward trends up while this agent’s credit share trends down',
};

/** The readable audit report of one run. */
export function formatAudit(report: RunAudit): string[] {
  const lines = [`Audit of ${report.run} (credit: ${report.method})`];
  // The agent column fits the longest name (Who&When experts run to 30 characters).
  const width = Math.max(14, ...report.agents.map((a) => a.agent.length));
  lines.push(
    `  ${'agent'.padEnd(width)} ${'episodes'.padStart(8)} ${'credit'.padStart(8)}   ${'95% CI'.padEnd(18)} ${'share'.padStart(6)} ${'tokens'.padStart(6)} ${'empty'.padStart(6)} ${'copied'.padStart(6)} ${'answer'.padStart(6)}  flags`,
  );
  for (const a of report.agents) {
    const ci = a.ci ? `[${fixed(a.ci[0])}, ${fixed(a.ci[1])}]` : '—';
    const cells = [
      a.agent.padEnd(width),
      a.episodes.toLocaleString('en-US').padStart(8),
      fixed(a.meanCredit).padStart(8),
      `  ${ci.padEnd(18)}`,
      fixed(a.creditShare, 2).padStart(6),
      fixed(a.tokenShare, 2).padStart(6),
      fixed(a.emptyRate, 2).padStart(6),
      fixed(a.copyRate, 2).padStart(6),
      fixed(a.finalAnswerShare, 2).padStart(6),
    ];
    lines.push(`  ${cells.join(' ')}  ${a.flags.join(', ') || '-'}`);
  }
  const textRead = report.agents.some((a) => a.emptyRate !== null || a.copyRate !== null);
  if (report.agents.length > 0 && !textRead)
    lines.push('  empty, copied, answer: the message text was not read (--no-text, or unreadable trace lines)');
  if (report.flags.length === 0) lines.push('  no flags');
  for (const flag of report.flags) lines.push(`  ${describeFlag(flag)}`);
  for (const reason of report.unreachable) lines.push(`  not reached: ${reason}`);
  return lines;
}

/** One line per flag: the words the Flags view and Problems show (flagEvidence.ts), then its trace line. */
export function describeFlag(flag: AuditFlag): string {
  const where = flag.location ? ` (${flag.location.uri}:${flag.location.line})` : '';
  return `${flagMessage(flag)}${where}`;
}

/** `--json`: the per-run object of the format. */
export function auditJson(report: RunAudit) {
  return {
    run: report.run,
    method: report.method,
    agents: report.agents.map((a) => ({
      agent: a.agent,
      episodes: a.episodes,
      meanCredit: a.meanCredit,
      ci: a.ci,
      creditShare: a.creditShare,
      tokenShare: a.tokenShare,
      emptyRate: a.emptyRate,
      copyRate: a.copyRate,
      finalAnswerShare: a.finalAnswerShare,
      flags: a.flags,
    })),
    flags: report.flags.map((f) => ({
      kind: f.kind,
      agent: f.agent ?? null,
      scope: f.scope,
      steps: f.steps ?? null,
      episode: f.episode ?? null,
      location: f.location ?? null,
      ...(f.locations ? { locations: f.locations } : {}),
      evidence: f.evidence,
    })),
    trends: report.trends,
    unreachable: report.unreachable,
  };
}

export { flagKinds };
