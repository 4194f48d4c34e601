import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { metadataView, routingView } from '../../../../src/engine/views/episodeExtras';
import * as limits from '../../../../src/engine/views/episodeTextLimits';
import { readRawRecord } from '../../../../src/engine/views/rawRecord';
import { toolCallsOf, toolResultOf } from '../../../../src/engine/views/toolCalls';
import { maxMetadataChars, maxRawRecordBytes } from '../../../../src/protocol/episodePanel';
import { tempFolder } from '../../../builders/episodeBuilder';

test("the engine's limits equal the protocol's", () => {
  assert.equal(limits.maxMetadataChars, maxMetadataChars);
  assert.equal(limits.maxRawRecordBytes, maxRawRecordBytes);
});

test('toolCallsOf: each name(JSON) line is a call; prose, bad JSON and odd names are not', () => {
  assert.deepEqual(
    toolCallsOf('I will look.\nget_user({"id":"<img src=x onerror=alert(1)>"})\nlist_all()\nnote(see above)\n9bad({})'),
    [
      {
        name: 'get_user',
        args: { id: '<img src=x onerror=alert(1)>' },
        line: 'get_user({"id":"<img src=x onerror=alert(1)>"})',
      },
      { name: 'list_all', args: {}, line: 'list_all()' },
    ],
  );
  assert.deepEqual(toolCallsOf('search("plain string")'), [
    { name: 'search', args: 'plain string', line: 'search("plain string")' },
  ]);
  assert.deepEqual(toolCallsOf(''), []);
});

test('toolResultOf: JSON objects and arrays only', () => {
  assert.deepEqual(toolResultOf(' {"a":[1,2]} '), { a: [1, 2] });
  assert.deepEqual(toolResultOf('[1]'), [1]);
  assert.equal(toolResultOf('{"a":'), undefined);
  assert.equal(toolResultOf('42'), undefined);
  assert.equal(toolResultOf('"text"'), undefined);
});

test('metadataView: an object as stored; too large or not an object says why instead', () => {
  assert.deepEqual(metadataView(null), { metadata: null, metadataNote: null });
  assert.deepEqual(metadataView('{"a":{"b":1}}'), { metadata: { a: { b: 1 } }, metadataNote: null });
  assert.match(metadataView('[1,2]').metadataNote ?? '', /not a JSON object/);
  assert.match(metadataView('{bad').metadataNote ?? '', /not a JSON object/);
  const large = metadataView(JSON.stringify({ text: 'x'.repeat(maxMetadataChars) }));
  assert.equal(large.metadata, null);
  assert.match(
    large.metadataNote ?? '',
    /^The metadata \(0\.3 MB as JSON\) is too large to show here; the raw record has it\.$/,
  );
});

test('routingView: experts by probability (ties by name), non-numbers dropped, bad JSON leaves no experts', () => {
  assert.equal(routingView(undefined), null);
  assert.deepEqual(
    routingView({ selected: 'b', probsJson: '{"a":0.25,"c":0.5,"b":0.25,"x":"high"}', behaviourProbsJson: null }),
    {
      selected: 'b',
      experts: [
        { name: 'c', probability: 0.5, behaviourProbability: null },
        { name: 'a', probability: 0.25, behaviourProbability: null },
        { name: 'b', probability: 0.25, behaviourProbability: null },
      ],
    },
  );
  assert.deepEqual(routingView({ selected: 'a', probsJson: 'not json', behaviourProbsJson: '[]' }), {
    selected: 'a',
    experts: [],
  });
});

test('readRawRecord: a record over the cap is its first bytes as they are, with a note; a non-JSON range as text', async () => {
  const root = tempFolder('credit-lens-raw-');
  const line = JSON.stringify({ id: 'e1', text: 'y'.repeat(2000) });
  writeFileSync(join(root, 'a.jsonl'), `${line}\nnot json at all\n`);
  const at = { uri: 'a.jsonl', line: 1, offset: 0, length: Buffer.byteLength(line), format: 'credit_lens_jsonl' };
  const cut = await readRawRecord(root, at, 100);
  assert.ok(cut.ok);
  assert.equal(cut.value.text, line.slice(0, 100));
  assert.equal(cut.value.pretty, false);
  assert.equal(cut.value.bytes, line.length);
  assert.match(cut.value.note ?? '', /^Showing the first 0\.0 MB of 0\.0 MB; Reveal in trace/);
  const pretty = await readRawRecord(root, at);
  assert.ok(pretty.ok);
  assert.equal(pretty.value.text, JSON.stringify(JSON.parse(line), null, 2));
  const text = await readRawRecord(root, { ...at, line: 2, offset: line.length + 1, length: 15 });
  assert.ok(text.ok);
  assert.deepEqual([text.value.text, text.value.pretty], ['not json at all', false]);
  assert.match(text.value.note ?? '', /not JSON/);
  const gone = await readRawRecord(root, { ...at, uri: 'missing.jsonl' });
  assert.equal(gone.ok, false);
  assert.match(gone.ok ? '' : gone.error, /^missing\.jsonl:1: cannot read the trace file/);
});
