import { parentPort, workerData } from 'node:worker_threads';
import { RosterDetails } from '../../ingest/compactEpisode';
import { parseLines, type ParsedBatch, type ParseRequest } from '../../ingest/parseLines';
import {
  flagCancel,
  flagInFlight,
  waitBelowLimit,
  type ParseWorkerData,
  type ParseWorkerMessage,
} from '../../ingest/parseWorkerProtocol';
import { closedOnExitRequest, type ExitRequest } from '../../ingest/workerThread';
import { digestEpisode } from './episodeDigest';
import type { TraceCreditChoice } from './traceCreditChoice';

// Entry point of dist/traceCreditWorker.js: a parse worker (the protocol of ingest/parseWorker.ts,
// one of a pool: ingest/pooledProducer.ts) that computes each episode's credit as it parses and
// sends the episode's digest (episodeDigest.ts) in its place, so the thread that tallies parses
// no episode JSON. A file is read a batch at a time: the read stops after each batch (through
// parseLines' cancel check) and resumes where it stopped once the batch's credit is computed.
const data = workerData as ParseWorkerData & { readonly job: TraceCreditChoice };
const flags = new Int32Array(data.flags);
const isCancelled = (): boolean => Atomics.load(flags, flagCancel) === 1;
const post = (message: ParseWorkerMessage): void => parentPort?.postMessage(message);

async function digestBatch(batch: ParsedBatch, request: ParseRequest): Promise<string> {
  const place = {
    uri: request.uri,
    format: request.format,
    ...(request.mechanism ? { mechanism: request.mechanism } : {}),
  };
  const episodes = [];
  for (const e of batch.episodes) episodes.push(await digestEpisode(e, place, data.job));
  return JSON.stringify({ ...batch, episodes });
}

/** Parses one request a batch at a time, posting each batch's digests. */
async function parseRequest(index: number, request: ParseRequest, details: RosterDetails): Promise<void> {
  let start = request.start;
  for (;;) {
    const batches: ParsedBatch[] = [];
    const end = parseLines(
      { ...request, start },
      () => batches.length > 0 || isCancelled(),
      (batch) => batches.push(batch),
      { details },
    );
    for (const batch of batches) {
      if (batch.lines === 0 && batch.issues.length === 0 && !batch.final) continue; // the stop after a batch
      waitBelowLimit(flags, flagInFlight, data.maxInFlight, isCancelled);
      const json = await digestBatch(batch, request);
      Atomics.add(flags, flagInFlight, 1);
      post({ kind: 'batch', index, json });
    }
    if (isCancelled() || batches.some((b) => b.final)) return;
    start = end;
  }
}

parentPort?.on('message', (requests: readonly ParseRequest[] | ExitRequest) => {
  if (closedOnExitRequest(requests, [parentPort])) return;
  void (async () => {
    try {
      const details = new RosterDetails();
      for (const [index, request] of requests.entries()) {
        if (!isCancelled()) await parseRequest(index, request, details);
        post({ kind: 'end', index });
      }
      post({ kind: 'done' });
    } catch (error) {
      post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  })();
});
