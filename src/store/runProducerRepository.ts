import type { Db, Statement } from './database';

/** What the index knows about who wrote a run: its manifest and the formats of its trace files. */
export interface RunProducer {
  /** The manifest as read (`run.config_json`), or null without a run.json. */
  readonly configJson: string | null;
  readonly framework: string | null;
  /** Distinct `source.format` of the run's trace files, most files first. */
  readonly formats: readonly string[];
}

/** Reads {@link RunProducer} of a run (for the choice of its advantage convention). */
export class RunProducerRepository {
  private readonly runStmt: Statement<Omit<RunProducer, 'formats'>>;
  private readonly formatsStmt: Statement<{ format: string }>;

  constructor(db: Db) {
    this.runStmt = db.prepare('SELECT config_json AS configJson, framework FROM run WHERE run_id = ?');
    this.formatsStmt = db.prepare(
      'SELECT format FROM source WHERE run_id = ? GROUP BY format ORDER BY count(*) DESC, format',
    );
  }

  producer(runId: number): RunProducer {
    const run = this.runStmt.get(runId);
    return {
      configJson: run?.configJson ?? null,
      framework: run?.framework ?? null,
      formats: this.formatsStmt.all(runId).map((r) => r.format),
    };
  }
}
