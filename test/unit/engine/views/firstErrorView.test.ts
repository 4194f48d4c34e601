import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CreditRow } from '../../../../src/core/creditInput';
import { messageCredit } from '../../../../src/engine/credit/messageCredit';
import { episodeCreditView } from '../../../../src/engine/views/creditView';
import { isFirstErrorView } from '../../../../src/protocol/episodePanel';
import type { ViewMethod } from '../../../../src/protocol/viewData';
import type { EpisodeCreditRow } from '../../../../src/store/episodeViewRepository';
import { creditViewInput } from './creditViewInput';
import { rosterAgent } from './rosterFixture';
import { prefixEpisode, prefixEvaluator, prefixStubValues } from '../replay/prefixStub';

const roster = prefixEpisode.agents.map((a, ordinal) => ({ ...rosterAgent(a.name, ordinal), agentId: a.agentId }));

/** A credit pass's rows as the index stores and reads them back. */
function stored(rows: readonly CreditRow[]): EpisodeCreditRow[] {
  return rows.map((r) => ({
    agentId: r.agentId,
    messageSeq: r.messageSeq,
    value: Number.isNaN(r.value) ? null : r.value,
    ciLow: r.ciLow,
    ciHigh: r.ciHigh,
    n: r.n,
    advantage: r.advantage,
    approximate: r.status === 'approximate',
    source: r.source,
    status: r.status,
    computedAt: '2026-01-01T00:00:00.000Z',
  }));
}

function view(rows: EpisodeCreditRow[], options: { method?: ViewMethod; reward?: number | null } = {}) {
  return episodeCreditView(
    creditViewInput({
      method: options.method ?? 'prefix',
      reward: options.reward === undefined ? 0 : options.reward,
      roster,
      authors: prefixEpisode.messageAuthors,
      rows,
    }),
  );
}

test("a stored pass of replayed prefix values shows the pass's own first error: the point of no return, exact", async () => {
  const pass = await messageCredit(prefixStubValues(prefixEvaluator(true)), 'prefix');
  const credit = view(stored(pass.rows));
  assert.ok(isFirstErrorView(credit.firstError));
  assert.deepEqual(credit.firstError, {
    message: pass.firstError?.index,
    agent: 'A',
    harmful: pass.firstError?.harmful,
    repairs: pass.firstError?.repairs,
    origin: 'replayed',
    threshold: 0.1,
    exact: true,
  });
  assert.equal(credit.firstError?.message, 2);
  assert.equal(credit.firstErrorNote, null);
});

test('checked prefix values of a pipeline (removals without a replay) give the first drop of δ, not exact', async () => {
  const pass = await messageCredit(prefixStubValues(prefixEvaluator(false)), 'prefix');
  const credit = view(stored(pass.rows));
  assert.equal(credit.firstError?.message, pass.firstError?.index);
  assert.equal(credit.firstError?.message, 0);
  assert.equal(credit.firstError?.origin, 'drop');
  assert.equal(credit.firstError?.threshold, 0.25);
  assert.equal(credit.firstError?.exact, false, 'the approximate values make it approximate');
});

test('a successful episode, Owen values, an unstored pass and a missing reward: null, with the reason said', async () => {
  const pass = await messageCredit(prefixStubValues(prefixEvaluator(true)), 'prefix');
  const success = view(stored(pass.rows), { reward: 1 });
  assert.equal(success.firstError, null);
  assert.match(success.firstErrorNote ?? '', /succeeded \(reward 1\)/);
  const owen = view([], { method: 'owen' });
  assert.equal(owen.firstError, null);
  assert.match(owen.firstErrorNote ?? '', /compute Prefix credit/);
  const none = view([]);
  assert.equal(none.status, 'not-computed');
  assert.equal(none.firstError, null);
  assert.match(none.firstErrorNote ?? '', /no prefix values are stored/);
  assert.match(view(stored(pass.rows), { reward: null }).firstErrorNote ?? '', /no team reward/);
  assert.equal('firstError' in view([], { method: 'loo' }), false, 'agent-level methods carry no first-error field');
});

test('a failure whose values never drop by δ names no first error, and says so', () => {
  const rows = stored(
    [0, 1, 2].map((seq) => ({
      episodeId: 1,
      agentId: seq === 1 ? 2 : 1,
      messageSeq: seq,
      value: -0.1,
      stderr: null,
      ciLow: null,
      ciHigh: null,
      n: null,
      status: 'exact' as const,
      source: 'checked',
      intervention: null,
      advantage: null,
    })),
  );
  const credit = view(rows);
  assert.equal(credit.firstError, null);
  assert.match(credit.firstErrorNote ?? '', /δ = 0.25/);
});

test('the protocol guard refuses malformed first errors', () => {
  const good = { message: 1, agent: null, harmful: [1], repairs: [], origin: 'drop', threshold: 0.25, exact: true };
  assert.ok(isFirstErrorView(good));
  for (const bad of [
    null,
    [],
    { ...good, message: -1 },
    { ...good, message: 1.5 },
    { ...good, agent: 3 },
    { ...good, harmful: [0, 'x'] },
    { ...good, repairs: null },
    { ...good, origin: 'guess' },
    { ...good, threshold: Number.NaN },
    { ...good, exact: 'yes' },
  ])
    assert.equal(isFirstErrorView(bad), false, JSON.stringify(bad));
});
