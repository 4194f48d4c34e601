import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Episode } from '../core/episode';
import type { RunManifest } from '../core/runManifest';
import type { DemoOptions } from './demoOptions';
import { routedEpisodes, routedManifest, routedRunName } from './routedEpisodes';
import { creditRunName, teamEpisodes, teamManifest, teamRunName } from './teamEpisodes';

/** What {@link writeDemoRun} wrote, per run folder. */
export interface DemoWriteResult {
  /** `files` counts the rollout JSONL files and `bytes` their total size (run.json excluded). */
  runs: { name: string; folder: string; files: number; episodes: number; bytes: number }[];
}

type RunWritten = DemoWriteResult['runs'][number];

// Large enough that a 1 GB run needs about a thousand write calls, small enough to stay out of the way.
const flushChars = 1 << 20;

/**
 * Writes the demo runs under `outDir`: `planner-solver-verifier/`, unless `creditRun` is false
 * `planner-solver-verifier-credit/` (the same tasks trained on each agent's marginal contribution,
 * whose verifier keeps contributing), and unless `routed` is false `routed-experts/`, each with a
 * `run.json` and `rollouts/step_0001.jsonl`… holding one episode per line. Episodes are streamed
 * from the generators and written in ~1 MB chunks, so memory stays flat whatever the run size.
 * Existing files with the same names are overwritten; other files are left alone (the caller
 * clears the folders when it wants a clean run).
 */
export function writeDemoRun(
  outDir: string,
  options: DemoOptions & { routed?: boolean; creditRun?: boolean } = {},
): DemoWriteResult {
  const runs = [writeRun(outDir, teamRunName, teamManifest(options), teamEpisodes(options))];
  if (options.creditRun !== false) {
    const signal = 'marginal-contribution';
    runs.push(writeRun(outDir, creditRunName, teamManifest(options, signal), teamEpisodes(options, signal)));
  }
  if (options.routed !== false)
    runs.push(writeRun(outDir, routedRunName, routedManifest(options), routedEpisodes(options)));
  return { runs };
}

function writeRun(outDir: string, name: string, manifest: RunManifest, episodes: Iterable<Episode>): RunWritten {
  const folder = join(outDir, name);
  const rollouts = join(folder, 'rollouts');
  mkdirSync(rollouts, { recursive: true });
  writeFileSync(join(folder, 'run.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const result: RunWritten = { name, folder, files: 0, episodes: 0, bytes: 0 };
  let file: StepFile | undefined;
  try {
    for (const episode of episodes) {
      const step = episode.step ?? 0;
      if (file?.step !== step) {
        if (file) result.bytes += file.close();
        file = new StepFile(join(rollouts, stepFileName(step)), step);
        result.files++;
      }
      file.append(`${JSON.stringify(episode)}\n`);
      result.episodes++;
    }
  } finally {
    if (file) result.bytes += file.close();
  }
  return result;
}

/** `step_0001.jsonl`; wider numbers past step 9999 (files then no longer sort by name, episodes carry their step). */
function stepFileName(step: number): string {
  return `step_${String(step).padStart(4, '0')}.jsonl`;
}

/** One open JSONL file with a string buffer flushed by size. */
class StepFile {
  private readonly fd: number;
  private chunks: string[] = [];
  private pending = 0;
  private written = 0;
  private closed = false;

  constructor(
    path: string,
    readonly step: number,
  ) {
    this.fd = openSync(path, 'w');
  }

  append(line: string): void {
    this.chunks.push(line);
    this.pending += line.length;
    if (this.pending >= flushChars) this.flush();
  }

  /** Flushes and closes the file; returns the bytes written. Safe to call twice. */
  close(): number {
    if (!this.closed) {
      this.closed = true;
      try {
        this.flush();
      } finally {
        closeSync(this.fd);
      }
    }
    return this.written;
  }

  private flush(): void {
    if (this.chunks.length === 0) return;
    const buffer = Buffer.from(this.chunks.join(''), 'utf8');
    this.chunks = [];
    this.pending = 0;
    // writeSync may write less than asked (a full disk, a pipe), so loop until the chunk is out.
    for (let offset = 0; offset < buffer.length;) offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
    this.written += buffer.length;
  }
}
