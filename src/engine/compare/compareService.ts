import type { CompareRunChoice, ComparisonRequest, RunComparer, RunComparison } from '../../core/runComparison';
import type { Db } from '../../store/database';

/**
 * PLACEHOLDER of the compare engine (issue 18): the real `CompareService` is built on another branch
 * and replaces this file at merge. Until then every call says so, and the Compare view shows it.
 */
export class CompareService implements RunComparer {
  // eslint-disable-next-line @typescript-eslint/no-useless-constructor -- the real engine's signature, so extension.ts compiles against it
  constructor(_db: Db) {
    // Nothing to open: the placeholder never reads the index.
  }

  /** Throws: the engine is not built on this branch. */
  choices(): readonly CompareRunChoice[] {
    return this.notBuilt();
  }

  /** Throws: the engine is not built on this branch. */
  compare(_request: ComparisonRequest): RunComparison {
    return this.notBuilt();
  }

  private notBuilt(): never {
    throw new Error('compare engine not built');
  }
}
