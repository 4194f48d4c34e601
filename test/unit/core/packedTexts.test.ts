import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchDocument } from '../../../src/core/indexing';
import { packedText, packedTransfer, TextPacker } from '../../../src/core/packedTexts';
import { packTexts } from '../../builders/packedTexts';

const decoder = new TextDecoder();

const episodes: string[][] = [
  ['plan: add 2 and 3', 'solver says 5'],
  [],
  ['naïve café — ünïcode', '数学 问题', 'emoji 🧮 with a surrogate pair', ''],
  ['single'],
];

test('each packed document decodes to its searchDocument, in order, empty episodes included', () => {
  const packer = new TextPacker();
  for (const contents of episodes) packer.pushDocument(contents);
  assert.equal(packer.count, episodes.length);
  const packed = packer.take();
  assert.equal(packed.ends.length, episodes.length);
  episodes.forEach((contents, i) => {
    const bytes = packedText(packed, i);
    assert.deepEqual(Buffer.from(bytes), Buffer.from(searchDocument(contents), 'utf8'), `document ${i}`);
    assert.equal(decoder.decode(bytes), searchDocument(contents));
  });
  assert.equal(packedText(packed, 1).length, 0);
});

test('take empties the packer and its result owns exactly its bytes, so transferring it leaves the packer intact', () => {
  const packer = new TextPacker();
  packer.push('first batch');
  const first = packer.take();
  assert.equal(packer.count, 0);
  assert.equal(first.bytes.byteLength, first.bytes.buffer.byteLength);
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(first, packedTransfer(first));
  port1.close();
  port2.close();
  assert.equal(first.bytes.byteLength, 0, 'transferred: detached on this side');
  packer.pushDocument(['second', 'batch']);
  const second = packer.take();
  assert.equal(decoder.decode(packedText(second, 0)), 'second\nbatch');
});

test('packTexts packs whole documents', () => {
  const packed = packTexts(['a b', '', 'c']);
  assert.deepEqual(
    [0, 1, 2].map((i) => decoder.decode(packedText(packed, i))),
    ['a b', '', 'c'],
  );
});

test("with spare buffers, take hands out the packer's own buffer and writes on in the spare one", () => {
  const returned: ArrayBuffer[] = [];
  const packer = new TextPacker(() => returned.pop());
  packer.push('x'.repeat(5000)); // larger than nothing: the packer allocates
  const first = packer.take();
  assert.equal(decoder.decode(packedText(first, 0)), 'x'.repeat(5000));
  returned.push(first.bytes.buffer); // the receiver sends it back after use
  packer.push('y');
  const second = packer.take();
  assert.ok(second.bytes.buffer === first.bytes.buffer, 'the returned buffer is written again');
  assert.equal(decoder.decode(packedText(second, 0)), 'y');
  packer.pushDocument(['z'.repeat(3000), 'w']); // no spare left: a new buffer
  const third = packer.take();
  assert.ok(third.bytes.buffer !== first.bytes.buffer);
  assert.equal(decoder.decode(packedText(third, 0)), `${'z'.repeat(3000)}\nw`);
});
