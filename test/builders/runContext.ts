import type { CreditJobOptions } from '../../src/engine/credit/creditJob';
import type { RunContext } from '../../src/engine/credit/runState';
import { CreditInputRepository } from '../../src/store/creditInputRepository';
import { CreditRepository } from '../../src/store/creditRepository';
import type { IndexStore } from '../../src/store/indexStore';
import { RunProducerRepository } from '../../src/store/runProducerRepository';
import { CreditAggregates } from '../../src/store/viewAggregates';

/** What `runCreditJob` gives `creditForRun` for one run of an open index, for tests that call the pass itself. */
export function runContextFor(store: IndexStore, options: CreditJobOptions): RunContext {
  return {
    options,
    hooks: {},
    input: new CreditInputRepository(store.db),
    output: new CreditRepository(store.db),
    counters: { logged: 0, cached: 0, evaluated: 0 },
    producers: new RunProducerRepository(store.db),
    signal: new AbortController().signal,
    tolerances: new CreditAggregates(store.db).tolerances(),
  };
}
