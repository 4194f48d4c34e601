import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalitionEntries, messageAuthors } from '../../../src/core/packedEpisodeJson';
import { mulberry32 } from '../../../src/core/mulberry32';

// The credit pass reads these two columns with a regular expression instead of JSON.parse; each
// must answer exactly what the parse answers, whatever text the column holds.
const parsedAuthors = (json: string): number[] => (JSON.parse(json) as [number][]).map((m) => m[0]);
const parsedEntries = (json: string): [string, number][] => Object.entries(JSON.parse(json) as Record<string, number>);

/** Text a role or channel may hold: brackets, quotes, backslashes, commas, non-ASCII. */
const awkward = ['assistant', 'a]b', '"quoted"', 'back\\slash', '[[0,1]]', ',', 'é😀', '', '}{'];

describe('messageAuthors', () => {
  it('reads the authors of packed messages as JSON.parse does, strings holding brackets and quotes included', () => {
    const random = mulberry32(7);
    for (let k = 0; k < 500; k++) {
      const messages = Array.from({ length: Math.floor(random() * 12) }, (_, seq) => [
        Math.floor(random() * 40),
        seq,
        awkward[Math.floor(random() * awkward.length)],
        random() < 0.5 ? null : awkward[Math.floor(random() * awkward.length)],
        Math.floor(random() * 5000),
        random() < 0.3 ? null : Math.floor(random() * 900),
        random() < 0.5 ? 1 : 0,
      ]);
      const json = JSON.stringify(messages);
      assert.deepEqual(messageAuthors(json), parsedAuthors(json), json);
    }
  });

  it('answers the parse for any other shape: spaces, a fractional or negative author, an empty array', () => {
    for (const json of ['[]', '[ [0,1] ]', '[[0.5,1]]', '[[-2,1,"x"]]', '[[3]]', '[[1,[2]],[4]]', '[[10,"]"],[2,"["]]'])
      assert.deepEqual(messageAuthors(json), parsedAuthors(json), json);
  });

  it('throws on text that is not JSON, as the parse does', () => {
    assert.throws(() => messageAuthors('[[0,1'), SyntaxError);
    assert.throws(() => messageAuthors('not json'), SyntaxError);
  });
});

describe('coalitionEntries', () => {
  it('reads the values the indexer writes, in the order the parse gives them', () => {
    const json = '{"1":0,"2":1,"3":0.25,"":0,"1,2":-1.5e-3,"1,3":0,"2,3":1,"1,2,3":1E+2}';
    assert.deepEqual(coalitionEntries(json), parsedEntries(json));
    assert.deepEqual(coalitionEntries('{}'), []);
  });

  it('leaves keys out of the parse order to the parse (integer keys are ordered first and ascending)', () => {
    for (const json of [
      '{"2":1,"1":0}',
      '{"1,2":1,"3":0}',
      '{"":0,"1":1}',
      '{"01":1,"1":0}',
      '{"4294967295":1,"1,2":0}',
    ])
      assert.deepEqual(coalitionEntries(json), parsedEntries(json), json);
  });

  it('gives a repeated key at its first place with its last value, once built into a Map', () => {
    const json = '{"1":0,"1,2":1,"1,2":5}';
    assert.deepEqual([...new Map(coalitionEntries(json))], parsedEntries(json));
  });

  it('answers the parse for values that are not plain numbers, and throws on text that is not JSON', () => {
    for (const json of ['{"1":null}', '{"1":"0.5"}', '{ "1": 0 }', '{"a":1}'])
      assert.deepEqual(coalitionEntries(json), parsedEntries(json), json);
    assert.throws(() => coalitionEntries('{"1":0'), SyntaxError);
  });
});
