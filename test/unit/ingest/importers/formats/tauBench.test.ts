import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { tauBenchMapper } from '../../../../../src/ingest/importers/formats/tau-bench/tauBench';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const rows = JSON.parse(
  readFileSync(join(__dirname, '../../../../fixtures/importers/tau-bench/trajectories.json'), 'utf8'),
) as unknown[];

function context(index: number): RecordContext {
  return { uri: 'airline/gpt-4o-airline.json', fileName: 'gpt-4o-airline.json', index, line: 1, roster: [] };
}

function imported(index: number): Episode {
  const result = tauBenchMapper.toEpisodes(rows[index], context(index));
  assert.ok(result.ok, result.ok ? '' : result.error);
  const episode = result.value[0];
  assert.ok(episode && result.value.length === 1);
  const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
  assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
  return episode;
}

function errorOf(record: unknown): string {
  const result = tauBenchMapper.toEpisodes(record, context(0));
  assert.ok(!result.ok, 'expected an error');
  return result.error;
}

describe('tauBenchMapper: episodes', () => {
  test('a trajectory maps to one episode: trials of a task form a group, trial is the sample', () => {
    const [first, second] = [imported(0), imported(1)];
    assert.equal(first.id, 'airline/gpt-4o-airline:1:0');
    assert.equal(second.id, 'airline/gpt-4o-airline:1:1');
    assert.equal(first.group, second.group);
    assert.deepEqual([first.sample, second.sample, first.task], [0, 1, '1']);
    assert.equal(first.prompt, 'You are mia_li_3668. You want to fly from New York to Seattle on May 20 (one way).');
    assert.equal(first.groundTruth, '[{"name":"cancel_reservation","kwargs":{"reservation_id":"Z7GOZK"}}]');
    assert.deepEqual(first.metadata, {
      userId: 'mia_li_3668',
      source: 'user',
      userCost: 0.002,
      rewardInfo: { r_actions: 0, gt_data_hash: '4fabcb43' },
    });
  });

  test('assistant, simulated user, tools and system are the agents, with the kinds of §6', () => {
    const episode = imported(0);
    assert.deepEqual(episode.agents, [
      { name: 'assistant', kind: 'llm', trainable: true },
      { name: 'user', kind: 'user_sim' },
      { name: 'system', kind: 'system' },
      { name: 'tools', kind: 'env' },
    ]);
    assert.deepEqual(
      episode.messages.map((m) => [m.agent, m.role, m.channel]),
      [
        ['system', 'system', undefined],
        ['user', 'user', undefined],
        ['assistant', 'assistant', undefined],
        ['user', 'user', undefined],
        ['assistant', 'assistant', 'tool_call'],
        ['tools', 'tool', 'tool_result'],
        ['assistant', 'assistant', undefined],
        ['user', 'user', undefined],
      ],
    );
  });

  test('a tool call with null content becomes name(arguments); the tool reply is its result', () => {
    const episode = imported(0);
    assert.equal(episode.messages[4]?.content, 'get_user_details({"user_id":"mia_li_3668"})');
    assert.match(episode.messages[5]?.content ?? '', /^\{"name": \{"first_name": "Mia"/);
  });

  test('a string reward is read as a number; ReAct "API output:" user turns are tool results', () => {
    const episode = imported(1);
    assert.equal(episode.reward, 1);
    assert.deepEqual(episode.messages[3], {
      agent: 'tools',
      role: 'user',
      channel: 'tool_result',
      content: 'API output: {"reservation_id": "Z7GOZK", "cabin": "business"}',
    });
    assert.ok(!episode.agents.some((a) => a.name === 'user' && a.kind !== 'user_sim'));
  });

  test('a duplicate row maps to the same episode id (the indexer reports the duplicate); a missing reward falls back to reward_info', () => {
    const [a, b] = [imported(2), imported(3)];
    assert.equal(a.id, b.id);
    assert.equal(b.reward, 0);
    assert.deepEqual(a.messages, b.messages);
  });

  test('without a trial the id falls back to the row index', () => {
    const row = { ...(rows[0] as Record<string, unknown>), trial: undefined };
    const result = tauBenchMapper.toEpisodes(row, context(4));
    assert.ok(result.ok);
    assert.equal(result.value[0]?.id, 'airline/gpt-4o-airline:1:#4');
    assert.equal(result.value[0]?.sample, undefined);
  });

  test('broken rows are errors naming the field', () => {
    assert.equal(errorOf(rows[4]), 'missing "traj"');
    assert.equal(errorOf({ traj: [] }), 'missing "task_id"');
    assert.equal(errorOf({ task_id: 1, traj: [{ content: 'x' }] }), 'traj[0]: missing "role"');
    assert.equal(errorOf({ task_id: 1, traj: [3] }), 'traj[0]: expected a message object');
    assert.equal(errorOf('x'), 'expected a tau-bench trajectory object');
  });
});

describe('tauBenchMapper.detect', () => {
  test('an array of EnvRunResult rows is detected; Who&When is not', () => {
    assert.ok(
      tauBenchMapper.detect({
        fileName: 'gpt-4o-airline.json',
        container: 'json',
        records: rows.slice(0, 5),
        root: rows,
      }) >= 0.9,
    );
    assert.equal(
      tauBenchMapper.detect({ fileName: '1.json', container: 'json', records: [{ history: [], mistake_agent: 'x' }] }),
      0,
    );
  });
});
