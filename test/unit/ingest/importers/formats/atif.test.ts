import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Episode } from '../../../../../src/core/episode';
import { decodeEpisode } from '../../../../../src/ingest/canonical/decodeEpisode';
import { atifMapper } from '../../../../../src/ingest/importers/formats/atif/atif';
import { resolveLink, withLinkedFiles } from '../../../../../src/ingest/importers/linkedFiles';
import type { RecordContext } from '../../../../../src/ingest/importers/types';

const root = join(__dirname, '../../../../fixtures/importers');

function mapped(uri: string): Episode[] {
  const record = JSON.parse(readFileSync(join(root, uri), 'utf8')) as unknown;
  const base: RecordContext = { uri, fileName: uri.slice(uri.lastIndexOf('/') + 1), index: 0, line: 1, roster: [] };
  const result = atifMapper.toEpisodes(record, withLinkedFiles(atifMapper, record, base, root));
  assert.ok(result.ok, result.ok ? '' : result.error);
  for (const e of result.value) assert.ok(decodeEpisode(JSON.parse(JSON.stringify(e))).ok);
  return result.value;
}

describe('atifMapper', () => {
  test('the root trajectory joins its continuation and makes its sub-agents agents of the episode', () => {
    const [e] = mapped('atif/run-1/trajectory.json');
    assert.ok(e);
    assert.equal(e.id, 'atif/run-1/trajectory');
    assert.deepEqual(
      e.agents.map((a) => [a.name, a.kind]),
      [
        ['orchestrator', 'llm'],
        ['system', 'system'],
        ['user', 'human'],
        ['tools', 'tool'],
        ['researcher', 'llm'],
        ['coder', 'llm'],
      ],
    );
    const said = e.messages.map((m) => `${m.agent}:${m.turn ?? ''}:${m.channel ?? ''}`);
    assert.deepEqual(said.slice(0, 6), [
      'system:1:',
      'user:2:',
      'orchestrator:3:thought',
      'orchestrator:3:tool_call',
      'tools:3:tool_result',
      'user:1:',
    ]);
    assert.ok(said.indexOf('researcher:3:speech') < said.indexOf('orchestrator:5:tool_call'));
    assert.equal(e.messages.at(-1)?.content, 'hello.txt now holds 6.8.0. Task complete.');
    assert.deepEqual(e.metadata?.['files'], [
      'atif/run-1/trajectory.json',
      'atif/run-1/trajectory.researcher.json',
      'atif/run-1/trajectory.cont-1.json',
      'atif/run-1/trajectory.coder.json',
    ]);
    assert.equal(e.metadata?.['schemaVersion'], 'ATIF-v1.5');
  });

  test('continuation and sub-agent files reached from trajectory.json give no episode of their own', () => {
    for (const f of ['trajectory.cont-1.json', 'trajectory.researcher.json', 'trajectory.coder.json'])
      assert.deepEqual(mapped(`atif/run-1/${f}`), [], f);
  });

  test('a missing or escaping reference is noted, not a crash; links never leave the folder', () => {
    const record = {
      schema_version: 'ATIF-v1.5',
      agent: { name: 'a' },
      steps: [{ step_id: 1, source: 'agent', message: 'hi' }],
      continued_trajectory_ref: '../../../etc/passwd',
    };
    const context: RecordContext = {
      uri: 'x/trajectory.json',
      fileName: 'trajectory.json',
      index: 0,
      line: 1,
      roster: [],
    };
    const result = atifMapper.toEpisodes(record, withLinkedFiles(atifMapper, record, context, root));
    assert.ok(result.ok);
    assert.deepEqual(result.value[0]?.metadata?.['unresolved'], ['../../../etc/passwd: outside the indexed folder']);
    assert.equal(resolveLink('a/b.json', '../../c.json'), undefined);
    assert.equal(resolveLink('a/b.json', 'c/d.json'), 'a/c/d.json');
    const bad = atifMapper.toEpisodes({ steps: 'no' }, context);
    assert.ok(!bad.ok && /missing "steps"/.test(bad.error));
  });
});
