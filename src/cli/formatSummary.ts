import type { IndexTally } from '../core/indexProgress';
import {
  formatIssue,
  inferredRunsLine,
  type IndexSummary,
  type RunSummary,
  type SourceSummary,
} from '../core/indexSummary';
import { count, megabytes, plural, seconds } from '../engine/report/format';

/** Sources listed one per line up to this many; beyond it, one line per folder (`--json` lists all). */
const maxListedSources = 8;

/** The human-readable summary of an index, as `index` and `info` print it. */
export function formatSummary(summary: IndexSummary): string[] {
  const lines = [
    `  files      ${count(summary.files)}`,
    `  episodes   ${count(summary.episodes)}`,
    `  messages   ${count(summary.messages)}`,
    `  agents     ${count(summary.agents)}`,
    `  steps      ${count(summary.steps)} (training steps, summed over runs)`,
    `  search     ${count(summary.searchableEpisodes)} of ${count(summary.episodes)} episodes searchable`,
    `  errors     ${count(summary.errorCount)}`,
  ];
  for (const issue of summary.errors) lines.push(`    ${formatIssue(issue)}`);
  if (summary.errorCount > summary.errors.length)
    lines.push(`    … and ${count(summary.errorCount - summary.errors.length)} more`);
  if (summary.repeatedRows)
    lines.push(
      `  repeats    ${count(summary.repeatedRows)} repeated rows skipped (the same row logged again; counted, not errors)`,
    );
  lines.push(...formatSources(summary), ...formatOthers(summary));
  const inferred = inferredRunsLine(summary.runs);
  lines.push(inferred ? `  runs       ${inferred}` : '  runs');
  for (const run of summary.runs) lines.push(...formatRun(run));
  return lines;
}

/** Side files: counted, the first listed (they are not read and are not errors). */
function formatOthers(summary: IndexSummary): string[] {
  const others = summary.otherFiles ?? [];
  if (others.length === 0) return [];
  const listed = others.slice(0, maxListedSources).map((o) => `    ${o}`);
  const more =
    others.length > maxListedSources
      ? [`    … and ${count(others.length - maxListedSources)} more (--json lists all)`]
      : [];
  return [
    `  other files ${count(others.length)} (configs, metrics, checkpoints: listed, not read)`,
    ...listed,
    ...more,
  ];
}

/** The formats line (files and episodes per importer), then each file with its format, or each folder when there are many. */
function formatSources(summary: IndexSummary): string[] {
  const formats = summary.formats ?? [];
  const sources = summary.sources ?? [];
  if (formats.length === 0) return [];
  const perFormat = formats.map((f) => `${f.format} ${plural(f.files, 'file')} / ${count(f.episodes)} ep`).join('; ');
  const listed = sources.length > maxListedSources ? sourceFolders(sources) : sources;
  const width = Math.max(...listed.map((s) => s.format.length));
  const lines = [
    `  formats    ${perFormat}`,
    sources.length > maxListedSources ? '  sources    by folder (--json lists every file)' : '  sources',
  ];
  for (const source of listed.slice(0, maxListedSources))
    lines.push(`    ${source.format.padEnd(width)}  ${source.file}${sourceCounts(source)}`);
  if (listed.length > maxListedSources)
    lines.push(`    … and ${plural(listed.length - maxListedSources, 'more folder')} (--json lists every file)`);
  return lines;
}

/** One entry per folder and format: `dir/ (40 files, 1,280 episodes)`, in path order. */
function sourceFolders(sources: readonly SourceSummary[]): SourceSummary[] {
  const folders = new Map<string, SourceSummary & { files: number }>();
  for (const source of sources) {
    const slash = source.file.lastIndexOf('/');
    const file = `${slash < 0 ? '.' : source.file.slice(0, slash)}/`;
    const key = `${file}\0${source.format}`;
    const seen = folders.get(key);
    folders.set(key, {
      file,
      format: source.format,
      files: (seen?.files ?? 0) + 1,
      episodes: (seen?.episodes ?? 0) + source.episodes,
      errors: (seen?.errors ?? 0) + source.errors,
      repeats: (seen?.repeats ?? 0) + (source.repeats ?? 0),
    });
  }
  return [...folders.values()];
}

function sourceCounts(source: SourceSummary & { files?: number }): string {
  const files = source.files === undefined ? '' : `${plural(source.files, 'file')}, `;
  const errors = source.errors > 0 ? `, ${plural(source.errors, 'error')}` : '';
  const repeats = source.repeats ? `, ${plural(source.repeats, 'repeated row')} skipped` : '';
  return ` (${files}${plural(source.episodes, 'episode')}${errors}${repeats})`;
}

function formatRun(run: RunSummary): string[] {
  const steps = run.steps.min === null ? 'no steps' : `steps ${run.steps.min}–${run.steps.max}`;
  const reward = run.meanReward === null ? 'no reward' : `mean reward ${run.meanReward.toFixed(3)}`;
  const mechanism = run.mechanism ? ` (${run.mechanism})` : '';
  const layout = run.layout ? ` [${run.layout} layout]` : '';
  const header = `    ${run.name || '(root)'}${mechanism}${layout}: ${plural(run.episodes, 'episode')}, ${plural(run.messages, 'message')}, ${steps}, ${reward}`;
  const agents = run.agents.map((a) => `${a.name} [${a.kind}] ${count(a.episodes)} ep / ${count(a.messages)} msg`);
  const note = run.layoutNote ? [`      note: ${run.layoutNote}`] : [];
  return [header, `      agents: ${agents.join('; ') || 'none'}`, ...note];
}

/** One line on what this pass did. */
export function formatPass(tally: IndexTally): string {
  const rate = tally.elapsedMs > 0 ? ` (${megabytes((tally.bytesRead / tally.elapsedMs) * 1000)}/s)` : '';
  const files = [
    `${count(tally.filesReindexed)} read in full`,
    `${count(tally.filesAppended)} appended`,
    `${count(tally.filesUnchanged)} unchanged`,
    ...(tally.removedFiles ? [`${count(tally.removedFiles)} removed`] : []),
  ].join(', ');
  const state = tally.cancelled ? 'cancelled after' : 'took';
  const repeats = tally.repeatsSkipped > 0 ? ` (${count(tally.repeatsSkipped)} repeated rows skipped)` : '';
  return `  this pass  +${plural(tally.episodesAdded, 'episode')}${repeats}, files: ${files}; ${state} ${seconds(tally.elapsedMs)}, read ${megabytes(tally.bytesRead)}${rate}`;
}
