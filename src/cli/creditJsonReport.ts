import type { CliIo } from './cliIo';

/** Typed arrays and non-finite numbers as plain JSON. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Float64Array) return Array.from(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

/**
 * The `credit --json` report, written as it goes: each run's episodes leave one line each as they
 * are read from the index and are never held together — the report of a 10 GB run is larger than
 * the longest string JavaScript can build. The document is the one JSON object it always was:
 * `{ root, method, runs: [{ …run, episodes: […] }], …summary }`. Nothing is written before the first
 * run is stored, so a command that fails early leaves stdout empty.
 */
export class CreditJsonReport {
  private runs = 0;

  constructor(
    private readonly io: CliIo,
    private readonly head: { readonly root: string; readonly method: string },
  ) {}

  /** One run: its summary fields, then its episodes, one line each. */
  run(summary: object, episodes: Iterable<unknown>): void {
    if (this.runs === 0) this.io.out(`${this.opening()},\n  "runs": [`);
    const fields = JSON.stringify(summary, jsonReplacer, 2).replace(/\n/g, '\n    ');
    // The summary without its closing brace, so the episodes join it as its last field.
    this.io.out(`${this.runs > 0 ? '  ,' : ''}    ${fields.slice(0, fields.lastIndexOf('\n'))},\n      "episodes": [`);
    let first = true;
    for (const episode of episodes) {
      this.io.out(`        ${first ? '' : ','}${JSON.stringify(episode, jsonReplacer)}`);
      first = false;
    }
    this.io.out('      ]\n    }');
    this.runs++;
  }

  /** Closes the document with the fields that come after the runs. */
  end(tail: Record<string, unknown>): void {
    const rest = Object.entries(tail).map(([key, value]) => `  ${JSON.stringify(key)}: ${indented(value)}`);
    if (this.runs === 0) this.io.out(`${this.opening()},\n  "runs": [],\n${rest.join(',\n')}\n}`);
    else this.io.out(`  ],\n${rest.join(',\n')}\n}`);
  }

  private opening(): string {
    return `{\n  "root": ${JSON.stringify(this.head.root)},\n  "method": ${JSON.stringify(this.head.method)}`;
  }
}

function indented(value: unknown): string {
  // JSON.stringify gives undefined for undefined (its type says string).
  const text = JSON.stringify(value, jsonReplacer, 2) as string | undefined;
  return (text ?? 'null').replace(/\n/g, '\n  ');
}
