import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunAudit } from '../../../src/core/auditReport';
import { mulberry32 } from '../../../src/core/mulberry32';
import { defaultAuditThresholds } from '../../../src/credit/audit/auditThresholds';
import type { AgentFacts, EpisodeFacts } from '../../../src/engine/audit/auditFacts';
import { buildRunAudit, RunTally } from '../../../src/engine/audit/runAudit';

const thresholds = { ...defaultAuditThresholds, minEpisodesPerWindow: 50 };

function agent(name: string, credit: number | null, messages: number, status = 'exact'): AgentFacts {
  return {
    name,
    declared: true,
    messages,
    tokens: 10 * messages,
    credit,
    creditStatus: credit === null ? 'none' : status,
    kind: 'llm',
    trainable: true,
    emptyMessages: null,
    copiedMessages: null,
    finalAnswerFirst: null,
  };
}

/** 12 steps × 30 episodes: `solver` contributes, `verifier` idles from step 7 on (and is silent now and then). */
function facts(seed: number): EpisodeFacts[] {
  const uniform = mulberry32(seed);
  const episodes: EpisodeFacts[] = [];
  for (let step = 1; step <= 12; step++)
    for (let k = 0; k < 30; k++) {
      const reward = uniform() < 0.2 + 0.05 * step ? 1 : 0;
      const idle = step >= 7;
      episodes.push({
        externalId: `s${step}e${k}`,
        step,
        reward: uniform() < 0.02 ? null : reward,
        uri: 'a.jsonl',
        line: episodes.length + 1,
        agents: [
          agent('solver', reward * (uniform() < 0.8 ? 1 : 0.5), 2, uniform() < 0.1 ? 'estimated' : 'exact'),
          agent('verifier', idle ? 0 : reward * (uniform() < 0.5 ? 1 : 0), uniform() < 0.05 ? 0 : 1),
          agent('critic', uniform() < 0.3 ? null : uniform() - 0.5, 1),
        ],
      });
    }
  return episodes;
}

function audit(order: readonly EpisodeFacts[], all: readonly EpisodeFacts[]): RunAudit {
  const counts = new Map<number, number>();
  for (const e of all) counts.set(e.step, (counts.get(e.step) ?? 0) + 1);
  const tally = new RunTally(
    [...counts].map(([step, episodes]) => ({ step, episodes })),
    thresholds,
  );
  for (const e of order) tally.add(e);
  return buildRunAudit('run', 'loo', tally);
}

/** Windows of two steps fed in turn, one episode each: every window's and every step's own order is kept. */
function interleaved(episodes: readonly EpisodeFacts[]): EpisodeFacts[] {
  const byWindow = new Map<number, EpisodeFacts[]>();
  for (const e of episodes) {
    const list = byWindow.get(Math.ceil(e.step / 2)) ?? [];
    list.push(e);
    byWindow.set(Math.ceil(e.step / 2), list);
  }
  const out: EpisodeFacts[] = [];
  for (let k = 0; out.length < episodes.length; k++)
    for (const list of byWindow.values()) {
      const next = list[k];
      if (next) out.push(next);
    }
  return out;
}

/** Flags without where they point (the first episode in feed order differs between the two orders). */
const withoutLocations = (r: RunAudit) => r.flags.map(({ location: _l, locations: _ls, episode: _e, ...rest }) => rest);

test('the audit tally judges windows whose episodes arrive interleaved as it judges them in step order', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const episodes = facts(seed);
    const inOrder = audit(episodes, episodes);
    const mixed = audit(interleaved(episodes), episodes);
    assert.ok(
      inOrder.flags.some((f) => f.kind === 'free-rider' || f.kind === 'idle'),
      `seed ${seed}: a verifier flag`,
    );
    assert.deepEqual(withoutLocations(mixed), withoutLocations(inOrder), `seed ${seed}`);
    assert.deepEqual(mixed.unreachable, inOrder.unreachable);
    assert.deepEqual(mixed.trends, inOrder.trends);
  }
});

test('flags are located at the first episode (in feed order) at or after their first step', () => {
  const episodes = facts(3);
  const report = audit(episodes, episodes);
  const idle = report.flags.find((f) => f.agent === 'verifier' && f.kind !== 'silent');
  assert.ok(idle?.steps && idle.location);
  const first = episodes.find((e) => e.step >= (idle.steps?.[0] ?? 0));
  assert.deepEqual(idle.location, { uri: first?.uri, line: first?.line });
  const silent = report.flags.find((f) => f.kind === 'silent');
  const firstSilent = episodes.find((e) => e.agents.some((a) => a.name === 'verifier' && a.messages === 0));
  assert.equal(silent?.location?.line, firstSilent?.line);
});
