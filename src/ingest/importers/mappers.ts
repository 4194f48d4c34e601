import { atifMapper } from './formats/atif/atif';
import { c3BucketsMapper, c3Mapper } from './formats/c3/c3';
import { ccpoMapper } from './formats/ccpo/ccpo';
import { inspectMapper } from './formats/inspect/inspect';
import { otelMapper } from './formats/otel/otel';
import { rllmMapper } from './formats/rllm/rllm';
import { tauBenchMapper } from './formats/tau-bench/tauBench';
import { trlMapper } from './formats/trl/trl';
import { verlMapper } from './formats/verl/verl';
import { whoAndWhenMapper } from './formats/who-and-when/whoAndWhen';
import type { FormatMapper } from './types';

/**
 * Every built-in format the indexer can detect and import, most specific first (detection ties go
 * to the earlier one: CCPO before the plain verl dumps it extends). The canonical Credit Lens JSONL
 * format is always tried first, and declarative mapping files add their own formats per folder.
 */
export const formatMappers: readonly FormatMapper[] = [
  ccpoMapper,
  verlMapper,
  c3Mapper,
  c3BucketsMapper,
  trlMapper,
  whoAndWhenMapper,
  tauBenchMapper,
  rllmMapper,
  atifMapper,
  inspectMapper,
  otelMapper,
];
