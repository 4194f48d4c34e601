import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { AgentDecl, Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { trlMapper, trlStepFromFileName } from '../../../../../src/ingest/importers/formats/trl/trl';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const fixtures = join(__dirname, '../../../../fixtures/importers/trl');

/** The rows of `completions_{step}.parquet`, as the parquet container hands them over. */
function rows(step: string): unknown[] {
  return JSON.parse(readFileSync(join(fixtures, `completions_${step}.rows.json`), 'utf8')) as unknown[];
}

function context(step: string, index: number, roster: readonly AgentDecl[] = []): RecordContext {
  const fileName = `completions_${step}.parquet`;
  return { uri: `out/completions/${fileName}`, fileName, index, line: index + 1, roster };
}

function mapFile(step: string, roster: readonly AgentDecl[] = []): Episode[] {
  return rows(step).flatMap((row, i) => {
    const result = trlMapper.toEpisodes(row, context(step, i, roster));
    assert.ok(result.ok, result.ok ? '' : result.error);
    for (const episode of result.value) {
      const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
      assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
    }
    return result.value;
  });
}

describe('trlMapper.toEpisodes', () => {
  const step10 = mapFile('00010');
  const step11 = mapFile('00011');

  test('maps one episode per row: prompt, the policy completion, summed reward functions and the advantage', () => {
    const [e] = step10;
    assert.equal(e?.step, 10);
    assert.equal(e?.prompt, '<|im_start|>user\nWhat is 2+3?<|im_end|>\n<|im_start|>assistant\n');
    assert.deepEqual(e?.messages, [{ agent: 'policy', role: 'assistant', content: '<think>2+3</think> 5' }]);
    assert.equal(e?.reward, 1.5);
    assert.deepEqual(e?.advantages, { policy: 0.83 });
    assert.deepEqual(e?.metadata, {
      rewards: { accuracy_reward: 1, format_reward: 0.5 },
      metrics: { num_tokens: 7 },
      fields: { judge_note: 'ok' },
    });
  });

  test('groups rows by (step, prompt) and leaves out a reward function that did not apply (null)', () => {
    assert.equal(step10[0]?.group, step10[1]?.group);
    assert.notEqual(step10[0]?.group, step10[2]?.group);
    assert.match(step10[0]?.group ?? '', /^s10-[0-9a-f]{10}$/);
    assert.equal(step10[3]?.reward, 1);
    assert.deepEqual(step10[3]?.metadata?.['rewards'], { accuracy_reward: 1 });
  });

  test('names each row by its place, so equal rows are distinct episodes and the indexer aligns re-dumped rows (dedupeRepeats)', () => {
    assert.equal(trlMapper.dedupeRepeats, true);
    assert.equal(step10[2]?.id, 'trl-completions_00010-2');
    assert.equal(step11[0]?.id, 'trl-completions_00011-0');
    assert.equal(new Set([...step10, ...step11].map((e) => e.id)).size, 7);
    const same = { step: 1, prompt: 'p', completion: '4', accuracy_reward: 1, advantage: 0 };
    const ids = [0, 1].map((i) => {
      const result = trlMapper.toEpisodes(same, context('00001', i));
      return result.ok ? result.value[0]?.id : undefined;
    });
    assert.notEqual(ids[0], ids[1]);
  });

  test('weights nothing it cannot see: a numeric log_extra column after a text one is a metric; NaN rewards are skipped (nansum)', () => {
    const result = trlMapper.toEpisodes(
      {
        step: 1,
        prompt: 'p',
        completion: 'c',
        accuracy_reward: 1,
        format_reward: Number.NaN,
        judge_note: 'x',
        num_tokens: 3,
        advantage: 0,
      },
      context('00001', 0),
    );
    assert.ok(result.ok);
    assert.equal(result.value[0]?.reward, 1);
    assert.deepEqual(result.value[0]?.metadata, {
      rewards: { accuracy_reward: 1 },
      metrics: { num_tokens: 3 },
      fields: { judge_note: 'x' },
    });
  });

  test('reads a string step and maps a conversational completion to policy and tool messages', () => {
    const e = step11[2];
    assert.equal(e?.step, 11);
    assert.deepEqual(
      e?.messages.map((m) => [m.agent, m.role]),
      [
        ['policy', 'assistant'],
        ['tool', 'tool'],
        ['policy', 'assistant'],
      ],
    );
    assert.deepEqual(
      e?.agents.map((a) => a.name),
      ['policy', 'tool'],
    );
  });

  test('takes the step from the file name when the row has none', () => {
    const result = trlMapper.toEpisodes({ prompt: 'p', completion: 'c', accuracy_reward: 1 }, context('00042', 0));
    assert.ok(result.ok);
    assert.equal(result.value[0]?.step, 42);
    assert.equal(trlStepFromFileName('completions_00042.parquet'), 42);
    assert.equal(trlStepFromFileName('other.parquet'), undefined);
  });

  test('sums every numeric column when none is named like a reward', () => {
    const result = trlMapper.toEpisodes(
      { step: 1, prompt: 'p', completion: 'c', correctness: 1, brevity: 0.25 },
      context('00001', 0),
    );
    assert.ok(result.ok);
    assert.equal(result.value[0]?.reward, 1.25);
  });

  test('rejects a row without prompt or completion', () => {
    assert.deepEqual(trlMapper.toEpisodes({ completion: 'c' }, context('00001', 0)), {
      ok: false,
      error: 'missing "prompt"',
    });
    assert.deepEqual(trlMapper.toEpisodes({ prompt: 'p', completion: null }, context('00001', 0)), {
      ok: false,
      error: 'missing "completion"',
    });
  });
});

describe('trlMapper.detect', () => {
  test('scores completion parquet files 0.95 and other rows or containers 0', () => {
    assert.ok(
      Math.abs(
        trlMapper.detect({ fileName: 'completions_00010.parquet', container: 'parquet', records: rows('00010') }) -
          0.95,
      ) < 1e-12,
    );
    assert.equal(trlMapper.detect({ fileName: 'data.parquet', container: 'parquet', records: rows('00010') }), 0.9);
    assert.equal(trlMapper.detect({ fileName: 'data.parquet', container: 'parquet', records: [{ text: 'x' }] }), 0);
    assert.equal(trlMapper.detect({ fileName: 'x.jsonl', container: 'jsonl', records: rows('00010') }), 0);
  });
});
