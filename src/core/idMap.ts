import { fnv1a, fnv1aBasis, fnv1aStep } from './fnv1a';

/**
 * A map from string ids to numbers for millions of ids (the episode ids a pass without an index
 * must remember to find duplicates: 1.3 M at 10 GB). A `Map<string, number>` of such ids takes
 * about 135 bytes per entry (the key string, the entry, and a heap number for every value past
 * 2^31); here the ids' code units sit in one byte arena, one byte each when all are below 256 (two
 * otherwise), and are found through an open-addressing table of typed arrays, at most three
 * quarters full: about 28–34 bytes per id of ten characters. No hash is kept per entry (a rehash
 * computes it again from the arena), and keys are compared exactly: a hash collision never makes
 * two ids one.
 */
export class IdMap {
  private arena = new Uint8Array(1 << 16);
  private used = 0;
  /** Entry e's code units are arena[starts[e], starts[e + 1]); starts[size] === used. */
  private starts = new Uint32Array(1024);
  private wide = new Uint8Array(1024);
  private values = new Float64Array(1024);
  private count = 0;
  /** Entry index + 1 per slot (0: empty); at most three quarters full. */
  private slots = new Int32Array(2048);

  get size(): number {
    return this.count;
  }

  /** The bytes this map's arrays hold, room to grow included. */
  get byteLength(): number {
    const arrays = [this.arena, this.starts, this.wide, this.values, this.slots];
    return arrays.reduce((sum, array) => sum + array.byteLength, 0);
  }

  get(id: string): number | undefined {
    const entry = this.find(id, hashOf(id));
    return entry < 0 ? undefined : this.values[entry];
  }

  /** Sets the value of `id`, adding it when new. */
  set(id: string, value: number): void {
    const hash = hashOf(id);
    const found = this.find(id, hash);
    if (found >= 0) {
      this.values[found] = value;
      return;
    }
    if (4 * (this.count + 1) > 3 * this.slots.length) this.rehash(this.slots.length * 2);
    const entry = this.append(id, value);
    this.slots[this.freeSlot(hash)] = entry + 1;
  }

  private find(id: string, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (this.slots[slot] ?? 0) - 1;
      if (entry < 0) return -1;
      if (this.keyEquals(entry, id)) return entry;
    }
  }

  private freeSlot(hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }

  private keyEquals(entry: number, id: string): boolean {
    const start = this.starts[entry] ?? 0;
    const end = this.starts[entry + 1] ?? 0;
    const a = this.arena;
    if (this.wide[entry] === 0) {
      if (end - start !== id.length) return false;
      for (let i = 0; i < id.length; i++) if (a[start + i] !== id.charCodeAt(i)) return false;
      return true;
    }
    if (end - start !== 2 * id.length) return false;
    for (let i = 0; i < id.length; i++) {
      const unit = (a[start + 2 * i] ?? 0) | ((a[start + 2 * i + 1] ?? 0) << 8);
      if (unit !== id.charCodeAt(i)) return false;
    }
    return true;
  }

  private append(id: string, value: number): number {
    const entry = this.count;
    if (entry + 2 > this.starts.length) this.growEntries();
    const isWide = hasWideUnit(id);
    const bytes = isWide ? 2 * id.length : id.length;
    if (this.used + bytes > this.arena.length) this.arena = grown(this.arena, this.used + bytes);
    const a = this.arena;
    let at = this.used;
    for (let i = 0; i < id.length; i++) {
      const unit = id.charCodeAt(i);
      a[at++] = unit & 0xff;
      if (isWide) a[at++] = unit >>> 8;
    }
    this.used = at;
    this.wide[entry] = isWide ? 1 : 0;
    this.values[entry] = value;
    this.starts[entry + 1] = at;
    this.count++;
    return entry;
  }

  private growEntries(): void {
    const size = this.starts.length * 2;
    this.starts = grown(this.starts, size);
    this.wide = grown(this.wide, size);
    this.values = grown(this.values, size);
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let entry = 0; entry < this.count; entry++) this.slots[this.freeSlot(this.entryHash(entry))] = entry + 1;
  }

  /** {@link hashOf} of entry `entry`'s id, from its code units in the arena. */
  private entryHash(entry: number): number {
    const start = this.starts[entry] ?? 0;
    const end = this.starts[entry + 1] ?? 0;
    const a = this.arena;
    let hash = fnv1aBasis;
    if (this.wide[entry] === 0) for (let at = start; at < end; at++) hash = fnv1aStep(hash, a[at] ?? 0);
    else for (let at = start; at < end; at += 2) hash = fnv1aStep(hash, (a[at] ?? 0) | ((a[at + 1] ?? 0) << 8));
    return hash | 0;
  }
}

/** FNV-1a as an Int32, as stored (the empty id's hash, the offset basis, is above 2^31). */
function hashOf(id: string): number {
  return fnv1a(id) | 0;
}

function hasWideUnit(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 0xff) return true;
  return false;
}

type Growable = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A copy of `array` with room for at least `size` elements (twice its length, or more). */
function grown<T extends Growable>(array: T, size: number): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}
