import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { inspectScoreValue } from '../../../../../src/ingest/importers/formats/inspect/traceInspectScores';
import { inspectMapper } from '../../../../../src/ingest/importers/formats/inspect/inspect';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const dir = join(__dirname, '../../../../fixtures/importers/inspect');
const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(dir, path), 'utf8')) as Record<string, unknown>;
const log = readJson('single-agent.json');
const logSamples = log['samples'] as unknown[];
const header = readJson('multi-agent/header.json');
const multiAgent = readJson('multi-agent/samples/1_epoch_1.json');

function imported(record: unknown, context: Partial<RecordContext> = {}): Episode {
  const result = inspectMapper.toEpisodes(record, {
    uri: 'logs/self.json',
    fileName: 'self.json',
    index: 0,
    line: 1,
    roster: [],
    ...context,
  });
  assert.ok(result.ok, result.ok ? '' : result.error);
  const episode = result.value[0];
  assert.ok(episode && result.value.length === 1);
  const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
  assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
  return episode;
}

const evalContext: Partial<RecordContext> = {
  uri: 'logs/research.eval',
  fileName: 'research.eval',
  header: { ...header, entry: 'samples/1_epoch_1.json' },
};

describe('inspectMapper: single-agent .json logs', () => {
  test('a sample × epoch is an episode: id → task and group, epoch → sample, "C" / "I" → 1 / 0', () => {
    const [first, second] = [imported(logSamples[0]), imported(logSamples[1])];
    assert.deepEqual([first.id, first.group, first.sample, first.task], ['logs/self:1:1', 'logs/self:1', 1, '1']);
    assert.deepEqual([second.id, second.group, second.sample], ['logs/self:1:2', 'logs/self:1', 2]);
    assert.deepEqual([first.reward, second.reward], [1, 0]);
    assert.equal(first.groundTruth, ' Yes');
    assert.deepEqual(first.final, { answer: 'Yes', agent: 'assistant' });
    assert.deepEqual(first.metadata, { scores: { match: 'C' }, sampleMetadata: {} });
  });

  test('without agent spans the messages are messages[] as logged, spoken by one assistant', () => {
    const episode = imported(logSamples[0]);
    assert.deepEqual(
      episode.messages.map((m) => [m.agent, m.role]),
      [
        ['system', 'system'],
        ['user', 'user'],
        ['assistant', 'assistant'],
      ],
    );
    assert.deepEqual(episode.agents, [
      { name: 'system', kind: 'system' },
      { name: 'user', kind: 'env' },
      { name: 'assistant', kind: 'llm', policy: 'gpt-4o-mini-2024-07-18' },
    ]);
  });

  test('tool calls, tool errors, list content, attachments, list targets and numeric-string scores', () => {
    const episode = imported(logSamples[2]);
    assert.deepEqual(
      episode.messages.map((m) => [m.agent, m.channel, m.content]),
      [
        ['system', undefined, 'Use the tools.'],
        ['user', undefined, 'What is 6 * 7?'],
        ['assistant', 'tool_call', 'calculator({"expression":"6 * 7"})'],
        ['tools', 'tool_result', 'error: Command timed out'],
        ['assistant', undefined, '6 * 7 = 42'],
      ],
    );
    assert.equal(episode.prompt, 'What is 6 * 7?');
    assert.equal(episode.groundTruth, '42');
    assert.equal(episode.reward, 0.75);
    assert.deepEqual(episode.final, { answer: '6 * 7 = 42', agent: 'assistant' });
  });
});

describe('inspectMapper: multi-agent .eval samples', () => {
  test('model events are attributed to the enclosing agent span; scorer model calls are left out', () => {
    const episode = imported(multiAgent, evalContext);
    assert.deepEqual(
      episode.messages.map((m) => [m.agent, m.content]),
      [
        ['user', 'Who wrote the paper on Shapley values?'],
        ['supervisor', "I'll ask the researcher.\ntransfer_to_researcher({})"],
        ['tools', 'Successfully transferred to researcher.'],
        ['system', 'You are a careful researcher.'],
        ['researcher', 'Lloyd Shapley wrote it in 1953.'],
        ['supervisor', 'Lloyd Shapley.'],
      ],
    );
    assert.deepEqual(
      episode.messages.map((m) => m.tokenCount),
      [undefined, 12, undefined, undefined, 9, 4],
    );
  });

  test('agent spans are the roster, each with the model it ran on; header and scores fill the rest', () => {
    const episode = imported(multiAgent, evalContext);
    assert.deepEqual(episode.agents, [
      { name: 'supervisor', kind: 'llm', policy: 'anthropic/claude-3-5-haiku' },
      { name: 'researcher', kind: 'llm', policy: 'anthropic/claude-3-5-sonnet' },
      { name: 'user', kind: 'env' },
      { name: 'tools', kind: 'tool' },
      { name: 'system', kind: 'system' },
    ]);
    assert.equal(episode.id, 'logs/research:1:1');
    assert.equal(episode.reward, 1);
    assert.deepEqual(episode.final, { answer: 'Lloyd Shapley.', agent: 'supervisor' });
    assert.equal(episode.metadata?.['task'], 'research_handoff');
    assert.equal(episode.metadata?.['runId'], 'M9pA');
  });

  test('without span_id on events, the innermost open span is used (older logs)', () => {
    const events = (multiAgent['events'] as Record<string, unknown>[]).map(({ span_id: _spanId, ...event }) => event);
    const episode = imported({ ...multiAgent, events }, evalContext);
    assert.deepEqual(
      episode.messages.filter((m) => m.role === 'assistant').map((m) => m.agent),
      ['supervisor', 'researcher', 'supervisor'],
    );
  });
});

describe('inspectMapper: errors, scores and detection', () => {
  test('records that are not samples are errors naming the field', () => {
    const errorOf = (record: unknown): string => {
      const result = inspectMapper.toEpisodes(record, {
        uri: 'x.eval',
        fileName: 'x.eval',
        index: 0,
        line: 1,
        roster: [],
      });
      assert.ok(!result.ok);
      return result.error;
    };
    assert.equal(errorOf({ epoch: 1, messages: [] }), 'missing "id"');
    assert.equal(errorOf({ id: 1, epoch: 1 }), 'missing "messages" (and "events")');
    assert.equal(errorOf(null), 'expected an Inspect sample object');
  });

  test('inspectScoreValue maps C / I / P / N, booleans and numeric strings; other values are not rewards', () => {
    assert.deepEqual(
      ['C', 'I', 'P', 'N', 'c', true, false, '0.25', 3].map(inspectScoreValue),
      [1, 0, 0.5, 0, 1, 1, 0, 0.25, 3],
    );
    assert.deepEqual([{ accuracy: 1 }, ['C'], 'maybe', null].map(inspectScoreValue), [
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('a .eval header or a .json log root is detected; sample records alone score lower; others are not', () => {
    assert.ok(
      inspectMapper.detect({ fileName: 'r.eval', container: 'zip', records: [multiAgent], root: header }) >= 0.9,
    );
    assert.ok(
      inspectMapper.detect({ fileName: 'r.json', container: 'json', records: logSamples.slice(0, 2), root: log }) >=
        0.9,
    );
    assert.ok(
      inspectMapper.detect({ fileName: 'big.json', container: 'json', records: logSamples.slice(0, 2) }) >= 0.8,
    );
    assert.equal(
      inspectMapper.detect({ fileName: 'a.json', container: 'json', records: [{ task_id: 1, traj: [] }] }),
      0,
    );
  });
});
