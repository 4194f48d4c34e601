import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import type { EpisodeFacts } from '../../../../../src/engine/audit/auditFacts';
import { silentFlags } from '../../../../../src/engine/audit/silentFlags';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { whoAndWhenSpeaker } from '../../../../../src/ingest/importers/formats/who-and-when/traceWhoAndWhen';
import { whoAndWhenMapper } from '../../../../../src/ingest/importers/formats/who-and-when/whoAndWhen';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const root = join(__dirname, '../../../../fixtures/importers/who-and-when');
const subsets = ['Algorithm-Generated', 'Hand-Crafted'];
const samples = subsets.flatMap((subset) =>
  readdirSync(join(root, subset))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `${subset}/${f}`),
);

function read(uri: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(root, uri), 'utf8')) as Record<string, unknown>;
}

function context(uri: string): RecordContext {
  return { uri, fileName: uri.split('/').pop() ?? uri, index: 0, line: 1, roster: [] };
}

function imported(uri: string): Episode {
  const result = whoAndWhenMapper.toEpisodes(read(uri), context(uri));
  assert.ok(result.ok, result.ok ? '' : `${uri}: ${result.error}`);
  assert.equal(result.value.length, 1);
  const episode = result.value[0];
  assert.ok(episode);
  const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
  assert.ok(decoded.ok, decoded.ok ? '' : `${uri}: ${decoded.error}`);
  return episode;
}

function errorOf(record: unknown): string {
  const result = whoAndWhenMapper.toEpisodes(record, context('x.json'));
  assert.ok(!result.ok, 'expected an error');
  return result.error;
}

describe('whoAndWhenMapper: the seventeen benchmark samples', () => {
  test('the fixture folder holds all seventeen samples', () => {
    assert.equal(samples.length, 17);
  });

  for (const uri of samples) {
    test(`${uri} imports, decodes, and its mistake label sits on a message of mistake_agent`, () => {
      const record = read(uri);
      const episode = imported(uri);
      const history = record['history'] as unknown[];
      assert.equal(episode.messages.length, history.length);
      const label = episode.labels?.find((l) => l.kind === 'mistake');
      assert.ok(label, 'mistake label');
      assert.equal(label.message, Number(record['mistake_step']));
      assert.equal(label.agent, record['mistake_agent']);
      assert.equal(episode.messages[label.message ?? -1]?.agent, label.agent);
      assert.equal(label.reason, record['mistake_reason']);
      assert.equal(episode.reward, 0);
      assert.equal(episode.task, record['question_ID']);
    });

    test(`${uri} declares every system_prompt agent and every speaker`, () => {
      const record = read(uri);
      const names = imported(uri).agents.map((a) => a.name);
      for (const name of Object.keys((record['system_prompt'] as Record<string, unknown> | undefined) ?? {}))
        assert.ok(names.includes(name), name);
      for (const entry of record['history'] as Record<string, string>[]) {
        const speaker = whoAndWhenSpeaker(entry['name'] ?? entry['role'] ?? '').agent;
        assert.ok(
          names.some((n) => n.toLowerCase() === speaker.toLowerCase()),
          speaker,
        );
      }
    });
  }

  test('episode ids are the file paths without extension, unique across the two subsets', () => {
    const ids = samples.map((uri) => imported(uri).id);
    assert.equal(new Set(ids).size, 17);
    assert.ok(ids.includes('Hand-Crafted/1') && ids.includes('Algorithm-Generated/1'));
  });
});

describe('whoAndWhenMapper: roster and speakers', () => {
  test('Algorithm-Generated/10 keeps the silent Geography_Expert in the roster, and the audit flags it silent', () => {
    const episode = imported('Algorithm-Generated/10.json');
    const geo = episode.agents.find((a) => a.name === 'Geography_Expert');
    assert.ok(geo?.description?.includes('Geography_Expert'));
    assert.ok(!episode.messages.some((m) => m.agent === 'Geography_Expert'));
    const facts: EpisodeFacts = {
      externalId: episode.id,
      step: 0,
      reward: episode.reward ?? null,
      uri: 'Algorithm-Generated/10.json',
      line: 1,
      agents: episode.agents.map((a) => ({
        name: a.name,
        declared: true,
        messages: episode.messages.filter((m) => m.agent === a.name).length,
        tokens: 0,
        credit: null,
        emptyMessages: null,
        creditStatus: 'exact',
        kind: 'llm',
        trainable: true,
        copiedMessages: null,
        finalAnswerFirst: null,
      })),
    };
    assert.deepEqual(
      silentFlags([facts]).map((f) => [f.kind, f.agent]),
      [['silent', 'Geography_Expert']],
    );
  });

  test('Hand-Crafted speakers are normalised: suffixes become channels, human and Orchestrator get their kinds', () => {
    const episode = imported('Hand-Crafted/5.json');
    assert.deepEqual(
      episode.agents.map((a) => [a.name, a.kind]),
      [
        ['human', 'human'],
        ['Orchestrator', 'orchestrator'],
        ['WebSurfer', 'llm'],
      ],
    );
    const channels = new Set(episode.messages.filter((m) => m.agent === 'Orchestrator').map((m) => m.channel));
    assert.deepEqual([...channels].sort(), ['instruct', 'termination', 'thought']);
    assert.equal(episode.messages[1]?.role, 'Orchestrator (thought)');
  });

  test('Computer_terminal is a tool whose messages are tool results', () => {
    const episode = imported('Algorithm-Generated/1.json');
    assert.equal(episode.agents.find((a) => a.name === 'Computer_terminal')?.kind, 'tool');
    assert.ok(
      episode.messages.filter((m) => m.agent === 'Computer_terminal').every((m) => m.channel === 'tool_result'),
    );
  });

  test('whoAndWhenSpeaker(raw) strips the (thought), (-> X) and (termination condition) suffixes', () => {
    assert.deepEqual(whoAndWhenSpeaker('Orchestrator (thought)'), { agent: 'Orchestrator', channel: 'thought' });
    assert.deepEqual(whoAndWhenSpeaker('Orchestrator (-> ComputerTerminal)'), {
      agent: 'Orchestrator',
      channel: 'instruct',
    });
    assert.deepEqual(whoAndWhenSpeaker('Orchestrator (termination condition)'), {
      agent: 'Orchestrator',
      channel: 'termination',
    });
    assert.deepEqual(whoAndWhenSpeaker(' WebSurfer '), { agent: 'WebSurfer' });
  });

  test('Hand-Crafted/3 carries its mistake_type as a second label on the same message', () => {
    const episode = imported('Hand-Crafted/3.json');
    const [mistake, type] = episode.labels ?? [];
    assert.equal(type?.kind, 'mistake_type');
    assert.equal(type.value, 'Tool failure');
    assert.equal(type.message, mistake?.message);
  });

  test('the run manifest roster comes first and is kept as declared', () => {
    const result = whoAndWhenMapper.toEpisodes(read('Hand-Crafted/1.json'), {
      ...context('Hand-Crafted/1.json'),
      roster: [{ name: 'Critic', kind: 'judge' }],
    });
    assert.ok(result.ok);
    assert.deepEqual(result.value[0]?.agents[0], { name: 'Critic', kind: 'judge' });
  });
});

describe('whoAndWhenMapper: pitfalls (trace-formats.md §7)', () => {
  test('a label whose step is spoken by another agent stays on that step, with a note in its reason', () => {
    const episode = imported('Synthetic/label-speaker-mismatch.json');
    const label = episode.labels?.[0];
    assert.equal(label?.agent, 'Websurfer');
    assert.equal(label.message, 2);
    assert.equal(episode.messages[2]?.agent, 'Orchestrator');
    assert.equal(
      label.reason,
      'The search query was too vague to find the discography. [Who&When: step 2 is spoken by Orchestrator, not Websurfer]',
    );
    assert.equal(episode.groundTruth, '3');
    assert.equal(episode.metadata?.['level'], undefined);
  });

  test('a mistake_step outside history keeps the agent, drops the message and says why', () => {
    const episode = imported('Synthetic/step-out-of-range.json');
    const [mistake, category] = episode.labels ?? [];
    assert.equal(mistake?.agent, 'Math_Expert');
    assert.equal(mistake.message, undefined);
    assert.match(mistake.reason ?? '', /mistake_step "7" is not an index of history\[0\.\.2\]/);
    assert.deepEqual(category, { kind: 'mistake_type', agent: 'Math_Expert', value: 'Factual_Error' });
    assert.equal(episode.metadata?.['level'], 1);
    assert.equal(episode.agents.find((a) => a.name === 'Verification_Expert')?.kind, 'llm');
  });

  test('records that are not Who&When episodes are errors naming the field', () => {
    assert.equal(errorOf(read('Synthetic/no-history.json')), 'missing "history"');
    assert.equal(errorOf([]), 'expected a Who&When episode object');
    assert.equal(errorOf({ history: [{ content: 'x' }] }), 'history[0]: missing "name" and "role" (the speaker)');
    assert.equal(errorOf({ history: ['x'] }), 'history[0]: expected an object');
  });
});

describe('whoAndWhenMapper.detect', () => {
  test('both sub-schemas are detected; other records are not', () => {
    for (const uri of ['Algorithm-Generated/1.json', 'Hand-Crafted/1.json']) {
      const record = read(uri);
      assert.ok(
        whoAndWhenMapper.detect({ fileName: '1.json', container: 'json', records: [record], root: record }) >= 0.9,
        uri,
      );
    }
    assert.equal(
      whoAndWhenMapper.detect({ fileName: 'a.json', container: 'json', records: [{ task_id: 1, traj: [] }] }),
      0,
    );
    assert.equal(whoAndWhenMapper.detect({ fileName: 'a.json', container: 'json', records: [] }), 0);
  });
});
