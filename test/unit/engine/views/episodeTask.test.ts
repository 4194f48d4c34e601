// The top of the Episode view, read through EpisodeViewService on a small indexed folder: the prompt
// (read back with the messages, once per opening), metadata and routing from the index, tool calls
// in message windows, and the raw record.
import assert from 'node:assert/strict';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runIndexJob } from '../../../../src/engine/indexJob';
import { EpisodeViewService, type EpisodeViewContext } from '../../../../src/engine/views/episodeViewService';
import { IndexStore } from '../../../../src/store/indexStore';
import { episode, jsonl, tempFolder } from '../../../builders/episodeBuilder';

const xss = '<img src=x onerror=alert(1)></script>';
const roster = [
  { name: 'router', kind: 'orchestrator' as const },
  { name: 'math', kind: 'llm' as const },
  { name: 'code', kind: 'llm' as const },
];
const episodes = [
  episode('with-prompt', {
    prompt: `Add 2 and 2. ${xss}`,
    groundTruth: '4',
    agents: roster,
    metadata: { difficulty: 'easy', source: { dataset: 'gsm8k', row: 17 } },
    routing: { probs: { math: 0.7, code: 0.3 }, selected: 'math', behaviourProbs: { math: 0.5, code: 0.5 } },
    messages: [
      { agent: 'math', role: 'assistant', channel: 'tool_call', content: 'Let me add.\nadd({"a":2,"b":2})' },
      { agent: 'code', role: 'tool', channel: 'tool_result', content: '{"sum":4}' },
      { agent: 'code', role: 'tool', channel: 'tool_result', content: 'plain text result' },
      { agent: 'math', role: 'assistant', content: 'note(see above)' },
    ],
  }),
  episode('no-prompt', { agents: roster, messages: [{ agent: 'math', content: 'hi' }] }),
  episode('long-prompt', { agents: roster, prompt: 'p'.repeat(70_000), messages: [{ agent: 'math', content: 'x' }] }),
];

const context: EpisodeViewContext = {
  defaultMethod: 'shared',
  evaluator: { configured: false, description: 'none', reason: null },
};
let root: string;
let store: IndexStore;
let id: (externalId: string) => number;

before(async () => {
  ({ root, store, id } = await freshCopy());
});

after(() => store.close());

test('episode() carries the metadata and the routing decision from the index, experts most probable first', () => {
  const service = new EpisodeViewService(store.db, root);
  const data = service.episode(id('with-prompt'), context);
  assert.deepEqual(data?.metadata, { difficulty: 'easy', source: { dataset: 'gsm8k', row: 17 } });
  assert.equal(data?.metadataNote, null);
  assert.deepEqual(data?.routing, {
    selected: 'math',
    experts: [
      { name: 'math', probability: 0.7, behaviourProbability: 0.5 },
      { name: 'code', probability: 0.3, behaviourProbability: 0.5 },
    ],
  });
  const plain = service.episode(id('no-prompt'), context);
  assert.equal(plain?.metadata, null);
  assert.equal(plain?.routing, null);
});

test('prompt() reads the prompt back with the messages: the same decoded record, not a second read', async () => {
  const g = await freshCopy();
  try {
    const service = new EpisodeViewService(g.store.db, g.root);
    assert.equal((await service.messages(g.id('with-prompt'), 0, 10)).messages.length, 4);
    // Gone from the file after the messages were read: the prompt still comes from that one read.
    truncateSync(join(g.root, 'run', 'a.jsonl'), 10);
    assert.deepEqual(await service.prompt(g.id('with-prompt')), {
      text: `Add 2 and 2. ${xss}`,
      chars: 'Add 2 and 2. '.length + xss.length,
      truncated: false,
    });
    await assert.rejects(service.prompt(g.id('no-prompt')), /^Error: run\/a\.jsonl:2: the file is shorter/);
  } finally {
    g.store.close();
  }
});

test('prompt(): null when the trace logs none; a long prompt is cut at the message limit and says so', async () => {
  const service = new EpisodeViewService(store.db, root);
  assert.deepEqual(await service.prompt(id('no-prompt')), { text: null, chars: 0, truncated: false });
  const long = await service.prompt(id('long-prompt'));
  assert.equal(long.text?.length, 65_536);
  assert.equal(long.chars, 70_000);
  assert.equal(long.truncated, true);
});

test('a rewritten file with another episode at the same bytes is refused, not shown as this one', async () => {
  const g = await freshCopy();
  try {
    const service = new EpisodeViewService(g.store.db, g.root);
    const file = join(g.root, 'run', 'a.jsonl');
    const lines = jsonl(...episodes).split('\n');
    // Same length, another id: "no-prompt" → "no-promqt".
    lines[1] = (lines[1] ?? '').replace('"no-prompt"', '"no-promqt"');
    writeFileSync(file, lines.join('\n'));
    await assert.rejects(
      service.prompt(g.id('no-prompt')),
      /^Error: run\/a\.jsonl:2: the line now holds episode "no-promqt", not "no-prompt"; re-index the run$/,
    );
  } finally {
    g.store.close();
  }
});

test('messages(): tool calls as name and parsed arguments, a JSON tool result parsed; prose and text results left alone', async () => {
  const service = new EpisodeViewService(store.db, root);
  const [call, json, text, prose] = (await service.messages(id('with-prompt'), 0, 10)).messages;
  assert.deepEqual(call?.toolCalls, [{ name: 'add', args: { a: 2, b: 2 }, line: 'add({"a":2,"b":2})' }]);
  assert.equal(call?.content, 'Let me add.\nadd({"a":2,"b":2})', 'the text is sent whole beside the calls');
  assert.deepEqual(json?.toolResult, { sum: 4 });
  assert.equal(text && 'toolResult' in text, false);
  assert.equal(prose && 'toolCalls' in prose, false, 'only tool_call messages are read for calls');
});

test('rawRecord(): the episode line pretty-printed; a file cut short is an error naming file and line', async () => {
  const g = await freshCopy();
  try {
    const service = new EpisodeViewService(g.store.db, g.root);
    const raw = await service.rawRecord(g.id('no-prompt'));
    assert.equal(raw.pretty, true);
    assert.equal(raw.note, null);
    assert.deepEqual(JSON.parse(raw.text), JSON.parse(jsonl(episodes[1]!).trim()));
    assert.match(raw.text, /^\{\n {2}"id": "no-prompt",/);
    assert.equal(raw.bytes, Buffer.byteLength(jsonl(episodes[1]!).trim()));
    truncateSync(join(g.root, 'run', 'a.jsonl'), 10);
    await assert.rejects(service.rawRecord(g.id('no-prompt')), /^Error: run\/a\.jsonl:2: the file is shorter/);
  } finally {
    g.store.close();
  }
});

/** The folder written and indexed in a new place (a test that damages its trace takes its own). */
async function freshCopy(): Promise<{ root: string; store: IndexStore; id: (externalId: string) => number }> {
  const copy = tempFolder('credit-lens-episode-task-');
  mkdirSync(join(copy, 'run'));
  writeFileSync(join(copy, 'run', 'a.jsonl'), jsonl(...episodes));
  const { index } = await runIndexJob({ root: copy });
  const opened = IndexStore.open(index.path);
  const lookup = opened.db.prepare<{ episode_id: number }>('SELECT episode_id FROM episode WHERE external_id = ?');
  return { root: copy, store: opened, id: (externalId) => lookup.get(externalId)?.episode_id ?? -1 };
}
