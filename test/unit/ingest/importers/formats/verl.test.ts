import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import type { AgentDecl, Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { ccpoMapper } from '../../../../../src/ingest/importers/formats/ccpo/ccpo';
import { splitRoleText } from '../../../../../src/ingest/importers/formats/verl/rlRoleText';
import { verlMapper } from '../../../../../src/ingest/importers/formats/verl/verl';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const fixtures = join(__dirname, '../../../../fixtures/importers');

function records(relative: string): unknown[] {
  return readFileSync(join(fixtures, relative), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

function context(uri: string, index: number, roster: readonly AgentDecl[] = []): RecordContext {
  return { uri, fileName: basename(uri), index, line: index + 1, roster };
}

/** Maps every line of a fixture and checks each episode passes the canonical decoder. */
function mapFile(relative: string, roster: readonly AgentDecl[] = []): Episode[] {
  return records(relative).flatMap((record, i) => {
    const result = verlMapper.toEpisodes(record, context(relative, i, roster));
    assert.ok(result.ok, result.ok ? '' : result.error);
    for (const episode of result.value) {
      const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
      assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
    }
    return result.value;
  });
}

describe('verlMapper.toEpisodes', () => {
  const episodes = mapFile('verl/rollout/12.jsonl');

  test('maps one episode per line, with input as prompt, score as reward and gts as ground truth', () => {
    assert.equal(episodes.length, 5);
    const [first] = episodes;
    assert.equal(first?.id, 'verl/rollout/12.jsonl:1');
    assert.equal(first?.prompt, 'user\nWhat is 2+3? Put the answer after ####.\nassistant\n');
    assert.equal(first?.reward, 1);
    assert.equal(first?.groundTruth, '5');
    assert.equal(first?.split, 'train');
    assert.deepEqual(first?.messages, [{ agent: 'policy', role: 'assistant', content: '2 plus 3 is 5.\n#### 5' }]);
    assert.deepEqual(first?.agents, [{ name: 'policy', kind: 'llm', trainable: true }]);
  });

  test('groups samples by (step, prompt) into the same GRPO group, read from drifted types', () => {
    const [a, b] = episodes;
    assert.equal(b?.step, 12);
    assert.equal(b?.reward, 0);
    assert.equal(a?.group, b?.group);
    assert.match(a?.group ?? '', /^s12-[0-9a-f]{10}$/);
    assert.equal(a?.task, b?.task);
    assert.equal(a?.sample, undefined);
  });

  test('keeps extra reward keys as metadata metrics and other keys as fields', () => {
    assert.deepEqual(episodes[0]?.metadata, { metrics: { acc: 1 }, fields: { pred: '5' } });
    assert.deepEqual(episodes[1]?.metadata, { metrics: { acc: 0 }, fields: { pred: '6' } });
  });

  test('splits a multi-turn agent-loop output into policy and tool turns, and takes the step from the file name', () => {
    const e = episodes[2];
    assert.equal(e?.step, 12);
    assert.equal(e?.groundTruth, undefined);
    assert.deepEqual(
      e?.messages.map((m) => [m.agent, m.role, m.turn, m.channel]),
      [
        ['policy', 'assistant', 0, undefined],
        ['tool', 'tool', 1, 'tool_result'],
        ['policy', 'assistant', 2, undefined],
      ],
    );
    assert.equal(e?.messages[1]?.content, '220000.0');
    assert.ok(e?.messages[2]?.content.endsWith('#### 220000.0'));
    assert.deepEqual(
      e?.agents.map((a) => [a.name, a.kind]),
      [
        ['policy', 'llm'],
        ['tool', 'tool'],
      ],
    );
    assert.equal(e?.metadata?.['turnSplit'], 'role-words');
  });

  test('serialises a numeric gts and reads a boolean score', () => {
    assert.equal(episodes[3]?.groundTruth, '220000');
    assert.equal(episodes[3]?.reward, 1);
  });

  test('does not split free text in which the model wrote a bare "user" line', () => {
    assert.equal(episodes[4]?.messages.length, 1);
    assert.equal(episodes[4]?.metadata, undefined);
  });

  test('prefixes validation groups so they never join training groups', () => {
    const [val] = mapFile('verl/validation/12.jsonl');
    assert.equal(val?.split, 'validation');
    assert.equal(val?.group, `val-${episodes[0]?.group ?? ''}`);
    assert.deepEqual(val?.metadata, { metrics: { reward: 1, acc: 1 } });
  });

  test('names the single agent after a one-agent run roster', () => {
    const [e] = mapFile('verl/validation/12.jsonl', [{ name: 'qwen', kind: 'llm', policy: 'Qwen2.5-7B' }]);
    assert.deepEqual(e?.agents, [{ name: 'qwen', kind: 'llm', policy: 'Qwen2.5-7B' }]);
    assert.equal(e?.messages[0]?.agent, 'qwen');
  });

  test('rejects a record that is not a verl line, naming the field', () => {
    const run = (record: unknown): string => {
      const result = verlMapper.toEpisodes(record, context('x/1.jsonl', 0));
      assert.ok(!result.ok);
      return result.error;
    };
    assert.equal(run({ input: 'q', score: 1 }), 'missing "output"');
    assert.equal(run({ output: 'a' }), 'missing "input"');
    assert.equal(run({ input: 'q', output: ['a'] }), '"output": expected text, got array');
    assert.equal(run([1, 2]), 'expected a JSON object with "input" and "output", got array');
  });
});

describe('verlMapper.detect', () => {
  const sample = (fileName: string, recs: readonly unknown[]) => ({
    fileName,
    container: 'jsonl' as const,
    records: recs,
  });

  test('scores verl dumps 0.9 with a {step}.jsonl name and 0.85 otherwise', () => {
    const recs = records('verl/rollout/12.jsonl');
    assert.equal(verlMapper.detect(sample('12.jsonl', recs)), 0.9);
    assert.equal(verlMapper.detect(sample('dump.jsonl', recs)), 0.85);
  });

  test('scores other JSONL and other containers 0', () => {
    assert.equal(verlMapper.detect(sample('12.jsonl', [{ id: 'e1', messages: [] }])), 0);
    assert.equal(
      verlMapper.detect({ fileName: '12.json', container: 'json', records: records('verl/rollout/12.jsonl') }),
      0,
    );
  });

  test('leaves CCPO dumps to the CCPO mapper', () => {
    const recs = records('ccpo/120.jsonl');
    assert.ok(verlMapper.detect(sample('120.jsonl', recs)) < ccpoMapper.detect(sample('120.jsonl', recs)));
    assert.ok(ccpoMapper.detect(sample('12.jsonl', records('verl/rollout/12.jsonl'))) < 0.5);
  });
});

describe('splitRoleText', () => {
  test('splitRoleText(text) keeps a plain response as one assistant turn', () => {
    assert.deepEqual(splitRoleText('just an answer'), {
      segments: [{ role: 'assistant', content: 'just an answer' }],
      split: false,
    });
  });

  test('splitRoleText(text) treats text before the first role line as an assistant turn and drops empty turns', () => {
    assert.deepEqual(splitRoleText('call\ntool\nresult\n\nassistant\n'), {
      segments: [
        { role: 'assistant', content: 'call' },
        { role: 'tool', content: 'result' },
      ],
      split: true,
    });
  });

  test('splitRoleText(text) tolerates CRLF role lines', () => {
    assert.deepEqual(
      splitRoleText('assistant\r\nhi\r\nuser\r\nmore').segments.map((s) => s.role),
      ['assistant', 'user'],
    );
  });
});
