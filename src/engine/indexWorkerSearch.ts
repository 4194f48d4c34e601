import { MessageChannel, parentPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { PackedTexts } from '../core/packedTexts';
import type { SideSearch } from '../ingest/indexRunFolder';
import { flagTextsInFlight, type SideTexts } from '../ingest/parseWorkerProtocol';
import { closedOnExitRequest, endWorker, startWorker, type ExitRequest } from '../ingest/workerThread';
import type { OpenOptions } from '../store/database';
import type { IndexStore } from '../store/indexStore';
import type { TextSlot } from '../store/searchRepository';
import { adoptSideSearchIndex, removeDatabaseFiles, SideSearchIndex } from '../store/sideSearchIndex';

/** What the index worker script is started with to build a side full-text index (see indexWorker.ts). */
export interface SideSearchWorkerData {
  readonly role: 'side-search';
  readonly sidePath: string;
  /** The parse worker's texts ({@link SideTexts}). */
  readonly port: MessagePort;
  /** TextRoute.flags: decremented once per batch of texts indexed (or dropped). */
  readonly flags: SharedArrayBuffer;
  readonly open: OpenOptions;
}

/** From the writer to the side index: where a batch's episodes landed, then `finish` after the last batch. */
type ToSideIndex =
  { readonly kind: 'placed'; readonly seq: number; readonly slots: readonly TextSlot[] } | { readonly kind: 'finish' };

/** From the side index: its file is complete and closed, or it failed (its episodes then go through the search stage). */
type FromSideIndex = { readonly kind: 'built' } | { readonly kind: 'failed'; readonly message: string };

/**
 * The side thread only holds the texts of a few batches at a time, but without a limit V8 lets its
 * heap grow far past that before collecting (about 80 MiB more peak memory on the 1 GB benchmark).
 * Its young generation is capped as every worker's (ingest/workerThread.ts).
 */
const sideHeapLimits = { maxOldGenerationSizeMb: 48 };

/** Makes the parse worker never wait for the side index again (it stopped). */
const unblocked = -(2 ** 30);

export interface SideSearchHandle extends SideSearch {
  /** Stops the side index (if still running) and deletes its file; safe after `finish`. */
  close(): Promise<void>;
}

/**
 * Starts building the full-text index of a cold pass in another thread running `script` (the
 * bundled index worker, in its side-search role), into a scratch file at `sidePath`: the parse
 * worker sends it the texts, `store` tells it where each batch's episodes landed, and `finish`
 * copies the result into the index at `indexPath` (adoptSideSearchIndex). The thread starts with
 * the first batch. Any failure leaves the episodes unsearchable, for the search stage to read back.
 */
export function startSideSearch(
  store: IndexStore,
  paths: { readonly indexPath: string; readonly sidePath: string },
  script: string,
  open: OpenOptions = {},
): SideSearchHandle {
  const { port1, port2 } = new MessageChannel();
  const flags = new SharedArrayBuffer(4);
  let worker: Worker | undefined;
  let outcome: Promise<boolean> | undefined;
  const textFlags = new Int32Array(flags);
  const releaseParser = (): void => {
    Atomics.store(textFlags, flagTextsInFlight, unblocked);
    Atomics.notify(textFlags, flagTextsInFlight);
  };
  const start = (): Worker => {
    const data: SideSearchWorkerData = { role: 'side-search', sidePath: paths.sidePath, port: port2, flags, open };
    const started = startWorker(script, { workerData: data, transferList: [port2], resourceLimits: sideHeapLimits });
    outcome = new Promise((resolve) => {
      const stop = (built: boolean): void => {
        if (!built) releaseParser();
        resolve(built);
      };
      started.on('message', (message: FromSideIndex) => stop(message.kind === 'built'));
      started.on('error', () => stop(false));
      started.on('exit', () => stop(false));
    });
    return started;
  };
  store.divertSearch((seq, slots) => {
    try {
      (worker ??= start()).postMessage({ kind: 'placed', seq, slots } satisfies ToSideIndex);
    } catch {
      // A thread that cannot start: the episodes stay unsearchable, for the search stage.
      store.divertSearch(undefined);
      outcome = Promise.resolve(false);
      releaseParser();
    }
  });
  return {
    route: { port: port1, flags },
    finish: async () => {
      store.divertSearch(undefined);
      if (!outcome) return 0;
      worker?.postMessage({ kind: 'finish' } satisfies ToSideIndex);
      if (!(await outcome)) return 0;
      if (worker) await endWorker(worker); // its heap, before the copy
      return adoptSideSearchIndex(paths.indexPath, paths.sidePath, open);
    },
    close: async () => {
      store.divertSearch(undefined);
      port1.close();
      if (worker) await endWorker(worker);
      removeDatabaseFiles(paths.sidePath);
    },
  };
}

/**
 * The side-search thread: pairs each batch's texts (from the parse worker) with its slots (from the
 * writer), adds them to the side index, and closes it on `finish` once every placed batch is in.
 * A failed write keeps draining the texts, so the parse worker never waits on a dead index.
 */
export function runSideSearchWorker(data: SideSearchWorkerData): void {
  const flags = new Int32Array(data.flags);
  const texts = new Map<number, PackedTexts>();
  const slots = new Map<number, readonly TextSlot[]>();
  const post = (message: FromSideIndex): void => parentPort?.postMessage(message);
  let failure: string | undefined;
  let finishing = false;
  let side: SideSearchIndex | undefined;
  try {
    side = SideSearchIndex.create(data.sidePath, data.open);
  } catch (error) {
    failure = messageOf(error);
  }
  let closed = false;
  const maybeFinish = (): void => {
    if (!finishing || slots.size > 0 || closed) return;
    closed = true;
    data.port.close();
    try {
      if (failure === undefined) side?.finish();
      else side?.close();
    } catch (error) {
      failure ??= messageOf(error);
    }
    post(failure === undefined ? { kind: 'built' } : { kind: 'failed', message: failure });
  };
  const settle = (seq: number): void => {
    const batchTexts = texts.get(seq);
    const batchSlots = slots.get(seq);
    if (!batchTexts || !batchSlots) return;
    texts.delete(seq);
    slots.delete(seq);
    try {
      if (failure === undefined) side?.add(batchSlots, batchTexts);
    } catch (error) {
      failure = messageOf(error);
    }
    const buffer = batchTexts.bytes.buffer;
    data.port.postMessage(buffer, [buffer]); // back to the parse worker's packer (core/packedTexts.ts)
    Atomics.sub(flags, flagTextsInFlight, 1);
    Atomics.notify(flags, flagTextsInFlight);
    maybeFinish();
  };
  data.port.on('message', (message: SideTexts) => {
    texts.set(message.seq, message.texts);
    settle(message.seq);
  });
  parentPort?.on('message', (message: ToSideIndex | ExitRequest) => {
    if (closedOnExitRequest(message, [parentPort, data.port])) {
      if (!closed) closeQuietly(side); // stopped before `finish`: the writer deletes the scratch file
      closed = true;
      return;
    }
    if (message.kind === 'finish') {
      finishing = true;
      maybeFinish();
      return;
    }
    slots.set(message.seq, message.slots);
    settle(message.seq);
  });
}

function closeQuietly(side: SideSearchIndex | undefined): void {
  try {
    side?.close();
  } catch {
    // Already unusable; the writer removes its file.
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
