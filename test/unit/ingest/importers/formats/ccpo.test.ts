import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { CreditEpisode } from '../../../../../src/core/creditInput';
import type { AgentDecl, Episode } from '../../../../../src/core/episode';
import {
  CoalitionValues,
  type NewEvaluation,
  type ValueCounters,
} from '../../../../../src/engine/credit/coalitionValues';
import { episodeCredit } from '../../../../../src/engine/credit/episodeCredit';
import { defaultMonteCarlo } from '../../../../../src/engine/credit/monteCarloCredit';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../../../src/ingest/canonical/decodeManifest';
import { ccpoMapper } from '../../../../../src/ingest/importers/formats/ccpo/ccpo';
import { ccpoSections } from '../../../../../src/ingest/importers/formats/ccpo/rlCcpoSections';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const fixtures = join(__dirname, '../../../../fixtures/importers/ccpo');

function context(index: number, roster: readonly AgentDecl[] = []): RecordContext {
  return { uri: 'val/120.jsonl', fileName: '120.jsonl', index, line: index + 1, roster };
}

/** Maps and decodes (as the indexer would) every line of a CCPO dump in `folder`, with its run.json roster. */
function importFolder(folder: string): Episode[] {
  const manifest = decodeManifest(JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')), 'ccpo');
  assert.ok(manifest.ok, manifest.ok ? '' : manifest.error);
  const roster = manifest.value.agents ?? [];
  const lines = readFileSync(join(folder, '120.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  return lines.flatMap((line, i) => {
    const mapped = ccpoMapper.toEpisodes(JSON.parse(line), context(i, roster));
    assert.ok(mapped.ok, mapped.ok ? '' : mapped.error);
    return mapped.value.map((episode) => {
      const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)), roster);
      assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
      return decoded.value;
    });
  });
}

describe('ccpoMapper.toEpisodes', () => {
  const episodes = importFolder(fixtures);

  test('splits the output into the Thinker thought and the Solver joint answer, named after the run roster', () => {
    const e = episodes[0];
    assert.deepEqual(e?.messages, [
      { agent: 'Thinker', role: 'assistant', content: 'Isolate x: subtract 3 then divide by 2.' },
      { agent: 'Solver', role: 'assistant', channel: 'final', content: '2x = 8, so x = 4. \\boxed{4}' },
    ]);
    assert.deepEqual(
      e?.agents.map((a) => [a.name, a.policy]),
      [
        ['Thinker', 'thinker-lora'],
        ['Solver', 'solver-lora'],
      ],
    );
    assert.deepEqual(e?.final, { answer: '4', agent: 'Solver' });
    assert.equal(e?.metadata?.['soloAnswer'], 'x = (11+3)/2 = 7. \\boxed{7}');
  });

  test('logs the solo run as "Thinker removed" and the coalition values of both agents', () => {
    const e = episodes[0];
    assert.equal(e?.reward, 1);
    assert.deepEqual(e?.counterfactuals, [{ intervention: 'remove', agents: ['Thinker'], reward: -1, replayed: true }]);
    assert.deepEqual(e?.coalitions, [
      { agents: ['Thinker', 'Solver'], value: 1 },
      { agents: ['Solver'], value: -1 },
      { agents: ['Thinker'], value: -1 },
      { agents: [], value: -1 },
    ]);
    assert.deepEqual(e?.agentRewards, { Thinker: 1.2, Solver: 1 });
    assert.equal(e?.metadata?.['unansweredReward'], -1);
  });

  test('reads rewards and steps logged as strings, and keeps an inline header inside the thought', () => {
    const e = episodes[1];
    assert.equal(e?.step, 120);
    assert.equal(e?.reward, -1);
    assert.equal(e?.counterfactuals?.[0]?.reward, 1);
    assert.equal(e?.messages[0]?.content, 'Try x = 3; the [Solver joint] step should check it.');
    assert.equal(e?.group, episodes[0]?.group, 'same step and prompt: one GRPO group');
    assert.equal(e?.split, 'validation');
  });

  test('maps the SEPO layout ([Solver], no solo section) without a counterfactual', () => {
    const e = episodes[3];
    assert.equal(e?.messages[1]?.content, '\\boxed{5}');
    assert.equal(e?.counterfactuals, undefined);
    assert.deepEqual(
      e?.coalitions?.map((c) => c.agents.length),
      [2, 1, 0],
    );
  });

  test('uses thinker and solver without a roster', () => {
    const line = readFileSync(join(fixtures, '120.jsonl'), 'utf8').split('\n')[0] ?? '';
    const result = ccpoMapper.toEpisodes(JSON.parse(line), context(0));
    assert.ok(result.ok);
    assert.deepEqual(
      result.value[0]?.messages.map((m) => m.agent),
      ['thinker', 'solver'],
    );
  });

  test('rejects an output without CCPO sections, naming the field', () => {
    const run = (output: string): string => {
      const result = ccpoMapper.toEpisodes({ input: 'q', output, score: 1 }, context(0));
      assert.ok(!result.ok);
      return result.error;
    };
    assert.match(run('plain answer'), /^"output": no "\[Thinker\]" section/);
    assert.equal(run('[Thinker]\nthink'), '"output": no "[Solver joint]" (or "[Solver]") section after "[Thinker]"');
  });
});

describe('ccpoSections', () => {
  test('ccpoSections(output) ends the joint answer at the last [Solver solo] header', () => {
    const result = ccpoSections('[Thinker]\nt\n\n[Solver joint]\na\n[Solver solo]\nquoted\n\n[Solver solo]\ns');
    assert.deepEqual(result, { ok: true, value: { thought: 't', joint: 'a\n[Solver solo]\nquoted', solo: 's' } });
  });
});

describe('ccpoMapper.detect', () => {
  test('scores CCPO dumps 0.97', () => {
    const records = readFileSync(join(fixtures, '120.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
    assert.equal(ccpoMapper.detect({ fileName: '120.jsonl', container: 'jsonl', records }), 0.97);
  });
});

/** The engine's view of an imported episode: logged v(S) by roster bitmask, as the index assembles it. */
function creditEpisode(e: Episode, episodeId: number): CreditEpisode {
  const bit = new Map(e.agents.map((a, i) => [a.name, 1n << BigInt(i)]));
  const mask = (agents: readonly string[]): bigint => agents.reduce((m, name) => m | (bit.get(name) ?? 0n), 0n);
  const full = (1n << BigInt(e.agents.length)) - 1n;
  const logged = new Map((e.coalitions ?? []).map((c) => [mask(c.agents), c.value]));
  for (const cf of e.counterfactuals ?? [])
    if (cf.intervention === 'remove' && !logged.has(full & ~mask(cf.agents)))
      logged.set(full & ~mask(cf.agents), cf.reward);
  if (e.reward !== undefined && !logged.has(full)) logged.set(full, e.reward);
  return {
    episodeId,
    externalId: e.id,
    runId: 1,
    step: e.step ?? null,
    group: e.group ?? null,
    reward: e.reward ?? null,
    groundTruth: e.groundTruth ?? null,
    agents: e.agents.map((a, i) => ({ agentId: i + 1, name: a.name })),
    uri: 'val/120.jsonl',
    offset: 0,
    length: 0,
    line: episodeId,
    loggedCoalitions: logged,
    loggedCounterfactuals: (e.counterfactuals ?? []).map((cf) => ({
      removed: mask(cf.agents),
      intervention: cf.intervention,
      replayed: cf.replayed ?? null,
      value: cf.reward,
    })),
    messageAuthors: e.messages.map((m) => e.agents.findIndex((a) => a.name === m.agent)),
    labels: [],
  };
}

/** One credit method over one episode with no evaluator configured: every value must be logged. */
async function creditWithoutEvaluator(
  episode: CreditEpisode,
  method: 'loo' | 'shapley',
  counters: ValueCounters,
): Promise<number[]> {
  const fresh: NewEvaluation[] = [];
  const sources = {
    loadCache: () => new Map(),
    evaluator: undefined,
    counters,
    fresh,
    useLogged: true,
    sequential: true,
    trust: () => Promise.resolve(undefined),
  };
  const values = (kind: 'agents' | 'messages') => () => new CoalitionValues(episode, kind, sources);
  const result = await episodeCredit({
    episode,
    method,
    values: values('agents'),
    messageValues: values('messages'),
    monteCarlo: defaultMonteCarlo,
  });
  return (result.rows.get(method) ?? []).map((r) => r.value);
}

describe('CCPO dump → leave-one-out credit (issue 7 done-when)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'credit-lens-ccpo-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  copyFileSync(join(fixtures, 'run.json'), join(folder, 'run.json'));
  copyFileSync(join(fixtures, '120.jsonl'), join(folder, '120.jsonl'));
  const episodes = importFolder(folder);

  test('gives LOO_thinker = joint − solo and LOO_solver = joint − v({thinker}) with zero evaluator calls', async () => {
    const counters: ValueCounters = { logged: 0, cached: 0, evaluated: 0 };
    const credit = await Promise.all(
      episodes.slice(0, 3).map((e, i) => creditWithoutEvaluator(creditEpisode(e, i + 1), 'loo', counters)),
    );
    for (const [i, e] of episodes.slice(0, 3).entries()) {
      const joint = e.reward ?? NaN;
      const solo = e.counterfactuals?.[0]?.reward ?? NaN;
      const thinkerOnly = e.coalitions?.find((c) => c.agents.length === 1 && c.agents[0] === 'Thinker')?.value ?? NaN;
      assert.deepEqual(credit[i], [joint - solo, joint - thinkerOnly], e.id);
    }
    assert.deepEqual(credit, [
      [2, 2],
      [-2, 0],
      [0, 2],
    ]);
    assert.deepEqual(counters, { logged: 9, cached: 0, evaluated: 0 });
  });

  test('gives exact Shapley values from the logged coalitions too', async () => {
    const counters: ValueCounters = { logged: 0, cached: 0, evaluated: 0 };
    const [first] = episodes;
    assert.ok(first);
    assert.deepEqual(await creditWithoutEvaluator(creditEpisode(first, 1), 'shapley', counters), [1, 1]);
    assert.equal(counters.evaluated, 0);
  });

  test('needs an evaluator when the dump logs no solo reward (SEPO layout)', async () => {
    const sepo = episodes[3];
    assert.ok(sepo);
    const counters: ValueCounters = { logged: 0, cached: 0, evaluated: 0 };
    await assert.rejects(creditWithoutEvaluator(creditEpisode(sepo, 4), 'loo', counters), /no evaluator is configured/);
  });
});
