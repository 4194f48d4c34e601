import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdMap } from '../../../src/core/idMap';
import { mulberry32 } from '../../../src/core/mulberry32';

// IdMap must answer exactly as a Map<string, number> would, for any ids.

function randomId(next: () => number): string {
  const length = Math.floor(next() * 12);
  let id = '';
  for (let i = 0; i < length; i++) {
    const r = next();
    // Mostly ASCII, some Latin-1, some wider code units and lone surrogates.
    const unit =
      r < 0.8 ? 32 + Math.floor(next() * 95) : r < 0.9 ? 128 + Math.floor(next() * 128) : Math.floor(next() * 0xffff);
    id += String.fromCharCode(unit);
  }
  return id;
}

test('IdMap gives what a Map gives for 200,000 random ids (narrow, Latin-1, wide, empty), set and reset', () => {
  const next = mulberry32(7);
  const ids = new IdMap();
  const oracle = new Map<string, number>();
  for (let i = 0; i < 200_000; i++) {
    const id = randomId(next);
    const value = Math.floor(next() * 2 ** 40) + next();
    assert.equal(ids.get(id), oracle.get(id));
    if (!oracle.has(id) || next() < 0.1) {
      ids.set(id, value);
      oracle.set(id, value);
    }
  }
  assert.equal(ids.size, oracle.size);
  for (const [id, value] of oracle) assert.equal(ids.get(id), value, JSON.stringify(id));
  for (let i = 0; i < 20_000; i++) {
    const id = `absent:${randomId(next)}`;
    if (!oracle.has(id)) assert.equal(ids.get(id), undefined);
  }
});

test('IdMap keeps apart ids that share a prefix, a length in bytes or their code units below 256', () => {
  const ids = new IdMap();
  const keys = ['', 'a', 'ab', 'abc', 'a\u0000', '\u0061\u0062', 'é', '\u00e9\u0000', '\u0100', '\u0001\u0001', 'ĀĀ'];
  keys.forEach((k, i) => ids.set(k, i));
  assert.equal(ids.size, new Set(keys).size);
  keys.forEach((k) => assert.equal(ids.get(k), keys.lastIndexOf(k), JSON.stringify(k)));
  assert.equal(ids.get('abcd'), undefined);
  assert.equal(ids.get('\u0101'), undefined);
});

test('IdMap holds a million ten-character ids in under 56 bytes each (a Map takes about 135)', () => {
  const ids = new IdMap();
  const id = (i: number): string => `s${i % 997}-g${Math.floor(i / 997)}-r${i % 8}`;
  for (let i = 0; i < 1_000_000; i++) ids.set(id(i), i * 2 ** 32 + i);
  assert.equal(ids.size, 1_000_000);
  // Counted from the map's own arrays: the process's arrayBuffers figure also counts arrays the map
  // outgrew until a background sweeper frees them, late on a busy machine (CI once read 60).
  const bytesPerId = ids.byteLength / ids.size;
  assert.ok(bytesPerId < 56, `${bytesPerId.toFixed(1)} bytes per id`);
  // Not less than an entry needs: start, width, hash, value (17 bytes), two slots, ten code units.
  assert.ok(bytesPerId >= 17 + 8 + 10, `${bytesPerId.toFixed(1)} bytes per id`);
  for (let i = 0; i < 1_000_000; i += 997) assert.equal(ids.get(id(i)), i * 2 ** 32 + i);
});

test('IdMap holds 300,000 ids of about ten characters in under 45 bytes each, room to grow included', () => {
  const idOf = (n: number): string => `s${n >> 8}-g${(n >> 2) & 63}-r${n & 3}`;
  const ids = new IdMap();
  for (let n = 0; n < 300_000; n++) ids.set(idOf(n), n);
  assert.equal(ids.size, 300_000);
  assert.equal(ids.get(idOf(299_999)), 299_999);
  // A Map<string, number> takes about 135 bytes per id; a hash kept per entry and a table at most
  // half full took this map to 57.
  assert.ok(ids.byteLength / ids.size < 45, `${(ids.byteLength / ids.size).toFixed(1)} bytes per id`);
});
