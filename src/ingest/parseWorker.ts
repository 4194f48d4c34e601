import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { packedTransfer, TextPacker, type PackedTexts } from '../core/packedTexts';
import { RosterDetails } from './compactEpisode';
import { parseLines, type ParsedBatch, type ParseRequest } from './parseLines';
import {
  flagCancel,
  flagInFlight,
  flagTextsInFlight,
  type ParseWorkerBatch,
  type ParseWorkerData,
  type ParseWorkerMessage,
  type SideTexts,
  type TextRoute,
  waitBelowLimit,
} from './parseWorkerProtocol';
import { closedOnExitRequest, type ExitRequest } from './workerThread';

// Entry point of the parse worker (dist/parseWorker.js): reads and decodes trace files so the index
// worker only writes. Each message is the list of files of one pass; batches stream back in order.
const data = workerData as ParseWorkerData;
const flags = new Int32Array(data.flags);
const route = data.textRoute;
const textFlags = route ? new Int32Array(route.flags) : undefined;
const isCancelled = (): boolean => Atomics.load(flags, flagCancel) === 1;
const post = (message: ParseWorkerMessage, transfer: ArrayBuffer[] = []): void =>
  parentPort?.postMessage(message, transfer);
let textSeq = 0;
/** With a side index, the texts' buffers come back from it through the route to be written again. */
const textPacker = new TextPacker(
  route ? () => receiveMessageOnPort(route.port)?.message as ArrayBuffer | undefined : undefined,
);
/** The episodes' JSON, as they are parsed (ParseState.episodeJson). */
const episodePacker = new TextPacker();

/** Posts a batch to the writer; with a text route, its texts go to the side full-text index instead. */
function emit(index: number, batch: ParsedBatch): void {
  waitBelowLimit(flags, flagInFlight, data.maxInFlight, isCancelled);
  const { texts, episodeJson: episodes, ...rows } = batch;
  const transfer = episodes ? packedTransfer(episodes) : [];
  let beside: Pick<ParseWorkerBatch, 'texts' | 'textSeq'> = {};
  if (texts && route && textFlags) beside = { textSeq: sendToSideIndex(texts, route, textFlags) };
  else if (texts) {
    beside = { texts };
    transfer.push(...packedTransfer(texts));
  }
  Atomics.add(flags, flagInFlight, 1);
  post({ kind: 'batch', index, json: JSON.stringify(rows), ...(episodes ? { episodes } : {}), ...beside }, transfer);
}

/** Sends a batch's texts to the side full-text index; returns the number they are sent under. */
function sendToSideIndex(texts: PackedTexts, route: TextRoute, textFlags: Int32Array): number {
  waitBelowLimit(textFlags, flagTextsInFlight, data.maxTextsInFlight, isCancelled);
  const seq = textSeq++;
  Atomics.add(textFlags, flagTextsInFlight, 1);
  route.port.postMessage({ seq, texts } satisfies SideTexts, packedTransfer(texts));
  return seq;
}

parentPort?.on('message', (requests: readonly ParseRequest[] | ExitRequest) => {
  if (closedOnExitRequest(requests, [parentPort, route?.port])) return;
  try {
    const details = new RosterDetails();
    requests.forEach((request, index) => {
      if (!isCancelled())
        parseLines(request, isCancelled, (batch) => emit(index, batch), {
          details,
          texts: textPacker,
          episodeJson: episodePacker,
        });
      post({ kind: 'end', index });
    });
    post({ kind: 'done' });
  } catch (error) {
    post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
