import { scenarioManifest, scenarioTruth } from '../src/demo/auditScenarios/scenario';
import { validationSuite } from '../src/demo/auditScenarios/scenarioSuite';
import {
  combineScores,
  scoredKinds,
  scoreFlags,
  type KindScore,
  type ObservedFlag,
} from '../src/demo/auditScenarios/scoreFlags';
import { writeScenario } from '../src/demo/auditScenarios/writeScenario';

/** What the injected auditor reports for one indexed folder: the flags of each run it found. */
export interface AuditReport {
  readonly runs: readonly { readonly run: string; readonly flags: readonly ObservedFlag[] }[];
}

/** The auditor under test: indexes `root` (one scenario folder) and audits it. */
export type AuditFunction = (root: string) => Promise<AuditReport>;

/** Precision and recall of an auditor over the validation suite (product-targets.md T10). */
export interface ValidationResult {
  readonly perKind: Record<string, KindScore>;
  readonly overall: KindScore;
  readonly scenarios: number;
  readonly episodes: number;
}

/**
 * Writes every scenario of `validationSuite()` under `workDir` (one run folder each, replacing an
 * earlier copy), runs `audit(folder)` once per scenario, scores its flags against the scenario's
 * ground truth and combines the scores. The run is found by the manifest name (or the only run
 * reported). Throws when the auditor reports no such run, or flags an agent the manifest does not
 * declare (a wiring bug, such as agent ids instead of names, rather than a wrong verdict).
 */
export async function auditValidation(workDir: string, audit: AuditFunction): Promise<ValidationResult> {
  const suite = validationSuite();
  const scores: Record<string, KindScore>[] = [];
  let episodes = 0;
  for (const spec of suite) {
    const written = writeScenario(workDir, spec);
    episodes += written.episodes;
    const manifest = scenarioManifest(spec);
    const report = await audit(written.folder);
    const run = report.runs.length === 1 ? report.runs[0] : report.runs.find((r) => r.run === manifest.name);
    if (!run)
      throw new Error(
        `the audit of ${written.folder} reported no run "${manifest.name}" (got ${report.runs.map((r) => r.run).join(', ') || 'none'})`,
      );
    const declared = new Set(manifest.agents?.map((a) => a.name));
    const stranger = run.flags.find((f) => f.agent !== undefined && !declared.has(f.agent));
    if (stranger)
      throw new Error(
        `the audit of ${manifest.name} flagged "${stranger.agent ?? ''}", which its run.json does not declare (${[...declared].join(', ')})`,
      );
    scores.push(scoreFlags(scenarioTruth(spec), run.flags));
  }
  const { overall, ...perKind } = combineScores(scores);
  return { perKind, overall, scenarios: suite.length, episodes };
}

const ratio = (value: number): string => value.toFixed(3);

/** The result as Markdown: one row per flag kind (tp, fp, fn, precision, recall) and the overall row. */
export function formatValidation(result: ValidationResult): string {
  const kinds = [...new Set([...scoredKinds, ...Object.keys(result.perKind)])];
  const row = (label: string, s: KindScore): string =>
    `| ${label} | ${s.tp} | ${s.fp} | ${s.fn} | ${ratio(s.precision)} | ${ratio(s.recall)} |`;
  return [
    `Audit validation: ${result.scenarios} scenarios, ${result.episodes.toLocaleString('en-US')} episodes (target: precision ≥ 0.9, recall ≥ 0.85).`,
    '',
    '| kind | tp | fp | fn | precision | recall |',
    '|---|---|---|---|---|---|',
    ...kinds.flatMap((kind) => {
      const score = result.perKind[kind];
      return score ? [row(kind, score)] : [];
    }),
    row('**overall**', result.overall),
  ].join('\n');
}
