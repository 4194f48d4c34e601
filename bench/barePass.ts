import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonlLines } from '../src/ingest/jsonlReader';

/** Result of one pass over a folder's JSONL files. */
export interface BarePassResult {
  readonly bytes: number;
  readonly lines: number;
  readonly ms: number;
}

/** Every `*.jsonl` under `dir`, sorted. */
export function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The baseline the indexer is measured against: stream every line of every trace file through
 * `JSON.parse` and do nothing else (same 1 MiB chunked reader as the indexer).
 */
export function barePass(dir: string): BarePassResult {
  const started = process.hrtime.bigint();
  let bytes = 0;
  let lines = 0;
  let sink = 0;
  for (const file of jsonlFiles(dir)) {
    readJsonlLines(file, { offset: 0, line: 0 }, (line) => {
      const value = JSON.parse(line.text) as { messages?: unknown[] };
      sink += value.messages?.length ?? 0; // keep the parse observable so it cannot be optimised away
      bytes += line.length + 1;
      lines++;
    });
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (sink < 0) console.log(sink);
  return { bytes, lines, ms };
}
