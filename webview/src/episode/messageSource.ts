import type { MessageView, MessageWindow } from '../../../src/protocol/episodePanel';
import { WindowCache, windowBounds, windowOf, windowSize, windowsCovering } from './windows';

/** Asks the host for messages `[offset, offset + limit)`. */
export type WindowFetcher = (offset: number, limit: number) => Promise<MessageWindow>;

/** Windows kept in memory (× windowSize messages). */
const cacheCapacity = 60;
/** Window requests in flight for the visible range at once. */
const maxInFlight = 4;
/** A window that failed is asked again after this long. */
const retryAfterMs = 5_000;

type Loaded = readonly (MessageView | undefined)[];

/**
 * The messages of one episode, fetched by window and cached. The list calls {@link ensure} with
 * the rows it shows; only those windows are queued (older wishes are dropped while scrolling fast),
 * at most {@link maxInFlight} at a time. `onChange` runs when windows arrive or fail.
 */
export class MessageSource {
  private readonly cache = new WindowCache<Loaded>(cacheCapacity);
  private readonly inFlight = new Map<number, Promise<Loaded>>();
  private readonly errors = new Map<number, { message: string; at: number }>();
  private wanted: number[] = [];
  private disposed = false;

  constructor(
    private readonly count: number,
    private readonly fetch: WindowFetcher,
    private readonly onChange: () => void,
  ) {}

  message(seq: number): MessageView | undefined {
    const w = windowOf(seq);
    return this.cache.peek(w)?.[seq - w * windowSize];
  }

  /** Why the window of `seq` could not be loaded, if it failed. */
  error(seq: number): string | undefined {
    return this.errors.get(windowOf(seq))?.message;
  }

  /** Asks for the windows of rows `first..last`, dropping earlier wishes. */
  ensure(first: number, last: number): void {
    if (this.count === 0) return;
    this.wanted = windowsCovering(Math.max(0, first), Math.min(this.count - 1, last));
    for (const w of this.wanted) this.cache.get(w);
    this.pump();
  }

  /** Window `index`, from the cache or the host (for find). */
  load(index: number): Promise<Loaded> {
    const cached = this.cache.get(index);
    if (cached) return Promise.resolve(cached);
    return this.request(index);
  }

  dispose(): void {
    this.disposed = true;
    this.wanted = [];
  }

  private pump(): void {
    const now = Date.now();
    for (const w of this.wanted) {
      if (this.inFlight.size >= maxInFlight) break;
      if (this.cache.has(w) || this.inFlight.has(w)) continue;
      const failed = this.errors.get(w);
      if (failed && now - failed.at < retryAfterMs) continue;
      this.request(w).catch(() => undefined);
    }
  }

  private request(index: number): Promise<Loaded> {
    const pending = this.inFlight.get(index);
    if (pending) return pending;
    const { offset, limit } = windowBounds(index, this.count);
    const promise = this.fetch(offset, limit).then(
      (window) => this.store(index, offset, window),
      (error: unknown) => {
        this.inFlight.delete(index);
        if (this.disposed) throw error;
        this.errors.set(index, { message: error instanceof Error ? error.message : String(error), at: Date.now() });
        this.onChange();
        throw error;
      },
    );
    this.inFlight.set(index, promise);
    return promise;
  }

  private store(index: number, offset: number, window: MessageWindow): Loaded {
    this.inFlight.delete(index);
    const rows: (MessageView | undefined)[] = [];
    for (const message of window.messages) {
      const at = message.seq - offset;
      if (at >= 0 && at < windowBounds(index, this.count).limit) rows[at] = message;
    }
    if (this.disposed) return rows;
    this.errors.delete(index);
    this.cache.set(index, rows, new Set(this.wanted));
    this.onChange();
    this.pump();
    return rows;
  }
}
