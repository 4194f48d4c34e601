import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { inspectMapper } from '../../../../../src/ingest/importers/formats/inspect/inspect';
import { otelMapper } from '../../../../../src/ingest/importers/formats/otel/otel';
import { episodesToOtlp } from '../../../../../src/ingest/importers/formats/otel/otelExport';
import { tauBenchMapper } from '../../../../../src/ingest/importers/formats/tau-bench/tauBench';
import { whoAndWhenMapper } from '../../../../../src/ingest/importers/formats/who-and-when/whoAndWhen';
import type { FormatMapper, RecordContext } from '../../../../../src/ingest/importers/types';

const fixtures = join(__dirname, '../../../../fixtures');
const readText = (path: string): string => readFileSync(join(fixtures, path), 'utf8');
const genAiTrace = JSON.parse(readText('importers/otel/genai-trace.json')) as unknown;
const legacyLines = readText('importers/otel/legacy.jsonl')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as unknown);

function context(uri = 'traces.json'): RecordContext {
  return { uri, fileName: uri, index: 0, line: 1, roster: [] };
}

/** Imports with the mapper and checks every episode passes the canonical decoder. */
function importAll(mapper: FormatMapper, record: unknown, ctx: RecordContext = context()): Episode[] {
  const result = mapper.toEpisodes(record, ctx);
  assert.ok(result.ok, result.ok ? '' : result.error);
  for (const episode of result.value) {
    const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
    assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
  }
  return result.value;
}

describe('otelMapper: GenAI semantic conventions', () => {
  const [team, helper] = importAll(otelMapper, [genAiTrace]);

  test('one episode per trace, with rl.* step, group, sample and task and the conversation id as id', () => {
    assert.ok(team && helper);
    assert.deepEqual(
      [team.id, team.step, team.group, team.sample, team.task],
      ['task-17:rollout-3', 12, '12:task-17', 3, 'task-17'],
    );
    assert.equal(team.prompt, 'What is 17 * 23?');
  });

  test('messages come from model spans under the enclosing invoke_agent, and from execute_tool spans', () => {
    assert.deepEqual(
      team?.messages.map((m) => [m.agent, m.role, m.channel, m.content, m.tokenCount]),
      [
        ['Planner', 'assistant', undefined, 'Multiply 17 by 23.', 5],
        ['Solver', 'assistant', 'tool_call', 'calculator({"expression":"17*23"})', undefined],
        ['calculator', 'tool', 'tool_result', '391', undefined],
        ['Solver', 'assistant', undefined, '17 * 23 = 391', 7],
      ],
    );
  });

  test('without create_agent spans every acting agent is declared: agents as llm, tools as tool', () => {
    assert.deepEqual(team?.agents, [
      { name: 'Planner', kind: 'llm', description: 'Breaks the problem into steps.' },
      { name: 'Solver', kind: 'llm' },
      { name: 'calculator', kind: 'tool' },
    ]);
  });

  test('evaluation events give the team reward (root) and per-agent rewards (agent spans)', () => {
    assert.equal(team?.reward, 1);
    assert.deepEqual(team?.agentRewards, { Solver: 1 });
  });

  test('structured (arrayValue / kvlistValue) output messages and pass / fail labels are read', () => {
    assert.equal(helper?.id, 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
    assert.deepEqual(helper?.messages, [{ agent: 'Helper', role: 'assistant', content: 'Please restart the router.' }]);
    assert.deepEqual(helper?.final, { answer: 'Please restart the router.', agent: 'Helper' });
    assert.equal(helper?.reward, 0);
  });
});

describe('otelMapper: pre-1.37 names and JSONL files', () => {
  test('spans of one trace spread over several lines are one episode, ordered by start time', () => {
    const episodes = importAll(otelMapper, legacyLines, context('traces.jsonl'));
    assert.equal(episodes.length, 1);
    const [episode] = episodes;
    assert.deepEqual(
      episode?.messages.map((m) => [m.agent, m.content, m.tokenCount]),
      [
        ['assistant', 'Hi!', 2],
        ['assistant', 'Bye!', undefined],
        ['assistant', 'Done.', undefined],
      ],
    );
    assert.equal(episode?.prompt, 'Say hi');
    assert.equal(episode?.reward, 1);
    assert.deepEqual(episode?.agents, [{ name: 'assistant', kind: 'llm' }]);
  });

  test('a single request (not wrapped in an array) is accepted', () => {
    assert.equal(importAll(otelMapper, genAiTrace).length, 2);
  });

  test('files that are not OTLP traces are errors', () => {
    const errorOf = (records: unknown): string => {
      const result = otelMapper.toEpisodes(records, context());
      assert.ok(!result.ok);
      return result.error;
    };
    assert.equal(errorOf([{ history: [] }]), 'missing "resourceSpans" (not an OTLP/JSON trace export)');
    assert.equal(
      errorOf([{ resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'x' }] }] }] }]),
      'no spans with "traceId" and "spanId" in "resourceSpans[].scopeSpans[].spans"',
    );
  });

  test('detect: GenAI traces score high, plain OTLP traces at the threshold, other JSON not at all', () => {
    assert.ok(
      otelMapper.detect({ fileName: 't.json', container: 'json', records: [genAiTrace], root: genAiTrace }) >= 0.9,
    );
    assert.ok(otelMapper.detect({ fileName: 't.jsonl', container: 'jsonl', records: legacyLines }) >= 0.9);
    const plain = { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'ab', spanId: 'cd', name: 'GET /' }] }] }] };
    assert.equal(otelMapper.detect({ fileName: 'p.json', container: 'json', records: [plain] }), 0.5);
    assert.equal(otelMapper.detect({ fileName: 'x.json', container: 'json', records: [{ task_id: 1, traj: [] }] }), 0);
  });
});

/** The fields of the canonical model only (decoded fixture lines keep unknown fields and `version`). */
function canonical(episode: Episode): Episode {
  const keys = [
    'id',
    'step',
    'group',
    'sample',
    'task',
    'split',
    'prompt',
    'agents',
    'messages',
    'final',
    'reward',
    'agentRewards',
    'advantages',
    'routing',
    'counterfactuals',
    'coalitions',
    'groundTruth',
    'labels',
    'metadata',
  ] as const;
  const messageKeys = [
    'agent',
    'turn',
    'role',
    'channel',
    'content',
    'tokenCount',
    'tokens',
    'logprobs',
    'attribution',
  ] as const;
  const pick = <T extends object>(obj: T, names: readonly string[]): T =>
    Object.fromEntries(Object.entries(obj).filter(([k]) => names.includes(k))) as T;
  const out = pick(episode, keys);
  return JSON.parse(JSON.stringify({ ...out, messages: episode.messages.map((m) => pick(m, messageKeys)) })) as Episode;
}

function canonicalFixtures(): Episode[] {
  const files = [
    'canonical/valid/pipeline.jsonl',
    'canonical/valid/minimal.jsonl',
    'canonical/valid/routed/routed.jsonl',
  ];
  return files.flatMap((file) =>
    readText(file)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((line) => {
        const decoded = decodeEpisode(JSON.parse(line));
        assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
        return canonical(decoded.value);
      }),
  );
}

function importedFixtures(): Episode[] {
  const whoAndWhen = ['Algorithm-Generated', 'Hand-Crafted', 'Synthetic'].flatMap((subset) =>
    readdirSync(join(fixtures, 'importers/who-and-when', subset))
      .filter((f) => f.endsWith('.json') && f !== 'no-history.json')
      .flatMap((f) =>
        importAll(
          whoAndWhenMapper,
          JSON.parse(readText(`importers/who-and-when/${subset}/${f}`)),
          context(`${subset}/${f}`),
        ),
      ),
  );
  const tau = (JSON.parse(readText('importers/tau-bench/trajectories.json')) as unknown[])
    .slice(0, 4)
    .flatMap((row, i) => importAll(tauBenchMapper, row, { ...context('tau.json'), index: i }));
  const log = JSON.parse(readText('importers/inspect/single-agent.json')) as { samples: unknown[] };
  const inspect = [
    ...log.samples,
    JSON.parse(readText('importers/inspect/multi-agent/samples/1_epoch_1.json')) as unknown,
  ].flatMap((s, i) => importAll(inspectMapper, s, { ...context(`log${i}.json`) }));
  return [
    ...whoAndWhen,
    ...tau,
    ...inspect,
    ...importAll(otelMapper, [genAiTrace]),
    ...importAll(otelMapper, legacyLines),
  ];
}

describe('episodesToOtlp: round trip through otelMapper', () => {
  test('every fixture episode (canonical, Who&When, tau-bench, Inspect, OTel) exports and imports back equal', () => {
    const episodes = [...canonicalFixtures(), ...importedFixtures().map(canonical)];
    assert.ok(episodes.length > 30);
    const request = JSON.parse(JSON.stringify(episodesToOtlp(episodes, [], { startTimeMs: 1746086400000 }))) as unknown;
    const back = importAll(otelMapper, [request]).map(canonical);
    assert.equal(back.length, episodes.length);
    for (let i = 0; i < episodes.length; i++) assert.deepStrictEqual(back[i], episodes[i], episodes[i]?.id);
  });

  test('the export reads back equal when its spans are split over JSONL lines in reverse order (traces in order of first appearance)', () => {
    const episodes = canonicalFixtures();
    const request = episodesToOtlp(episodes);
    const spans = request.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const lines = spans.map(
      (span) =>
        JSON.parse(
          JSON.stringify({
            resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans: [span] }] }],
          }),
        ) as unknown,
    );
    const byId = (a: Episode, b: Episode): number => a.id.localeCompare(b.id);
    assert.deepStrictEqual(importAll(otelMapper, lines.reverse()).map(canonical).sort(byId), [...episodes].sort(byId));
  });

  test('the export uses the GenAI span shapes: invoke_workflow root, create_agent per roster agent, one span per message', () => {
    const [episode] = canonicalFixtures();
    assert.ok(episode);
    const spans = episodesToOtlp([episode]).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    assert.deepEqual(
      spans.map((s) => s.name),
      [
        'invoke_workflow q0042',
        'create_agent planner',
        'create_agent solver',
        'create_agent verifier',
        'invoke_agent planner',
        'invoke_agent solver',
        'invoke_agent verifier',
      ],
    );
    assert.ok(spans.every((s) => /^[0-9a-f]{32}$/.test(s.traceId) && /^[0-9a-f]{16}$/.test(s.spanId)));
    assert.equal(new Set(spans.map((s) => s.spanId)).size, spans.length);
    const root = spans[0];
    assert.deepEqual(root?.events.find((e) => e.name === 'gen_ai.evaluation.result')?.attributes, [
      { key: 'gen_ai.evaluation.name', value: { stringValue: 'reward' } },
      { key: 'gen_ai.evaluation.score.value', value: { doubleValue: 1 } },
    ]);
    assert.ok(root?.attributes.some((a) => a.key === 'rl.step' && a.value.intValue === '12'));
  });

  test('computed credit is attached as rl.credit events and imported into metadata.credit', () => {
    const [episode] = canonicalFixtures();
    assert.ok(episode);
    const credit = [
      { episode: episode.id, agent: 'planner', method: 'shapley_exact', value: 0.25, stderr: 0.01 },
      { episode: episode.id, agent: 'solver', method: 'loo', value: 0.5, message: 1 },
      { episode: 'other', agent: 'planner', method: 'loo', value: 9 },
    ];
    const [back] = importAll(otelMapper, [JSON.parse(JSON.stringify(episodesToOtlp([episode], credit))) as unknown]);
    assert.deepEqual(back?.metadata?.['credit'], [
      { method: 'shapley_exact', agent: 'planner', value: 0.25, stderr: 0.01 },
      { method: 'loo', agent: 'solver', value: 0.5, message: 1 },
    ]);
  });
});
