import { maxMessageWindow } from '../../../src/protocol/episodePanel';

// Message windows: the episode's messages are fetched from the host in fixed windows of
// `windowSize` and kept in a bounded LRU cache. Pure: no DOM.

export const windowSize = Math.min(200, maxMessageWindow);

export function windowOf(seq: number): number {
  return Math.floor(seq / windowSize);
}

/** Offset and limit of window `index` of an episode of `count` messages (limit 0 past the end). */
export function windowBounds(index: number, count: number): { offset: number; limit: number } {
  const offset = index * windowSize;
  return { offset, limit: Math.max(0, Math.min(windowSize, count - offset)) };
}

/** Windows covering rows `first..last` (inclusive), in order. */
export function windowsCovering(first: number, last: number): number[] {
  const windows: number[] = [];
  for (let w = windowOf(first); w <= windowOf(last); w++) windows.push(w);
  return windows;
}

/** Most recently used first-out cache of windows, never evicting pinned (visible) ones. */
export class WindowCache<T> {
  private readonly entries = new Map<number, T>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  has(index: number): boolean {
    return this.entries.has(index);
  }

  /** The window, marked as recently used. */
  get(index: number): T | undefined {
    const value = this.entries.get(index);
    if (value !== undefined) {
      this.entries.delete(index);
      this.entries.set(index, value);
    }
    return value;
  }

  /** Same as {@link get} without touching the recency (for hot paths that read every frame). */
  peek(index: number): T | undefined {
    return this.entries.get(index);
  }

  /** Stores a window and evicts the least recently used unpinned ones above capacity. */
  set(index: number, value: T, pinned: ReadonlySet<number> = new Set()): void {
    this.entries.delete(index);
    this.entries.set(index, value);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      if (key !== index && !pinned.has(key)) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
