import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  flagEvidence,
  flagEvidenceRows,
  flagMessage,
  flagScope,
  interval,
  pValue,
  significant,
  type FlagFacts,
} from '../../../../src/engine/report/flagEvidence';

// Evidence as the audit stores it for the demo's verifier (17-digit floats, a p-value that rounds to 0).
const window = (from: number, to: number, meanCredit: number, ci90: [number, number], meanReward: number) => ({
  from,
  to,
  n: 128,
  meanCredit,
  sd: 0.08838834764831845,
  ci90,
  ci95: [-0.007499718629219169, 0.02312471862921917],
  meanReward,
  partnerSolo: 0.71875,
  mcnemarP: 1,
  epsilon: 0.036328125,
  partnerSoloAssumed: false,
  requiredEpisodes: 17,
  creditStatus: { exact: 128 },
});

/** A step-scope flag on the verifier. */
const verifierFlag = (kind: string, steps: [number, number], evidence: Record<string, unknown>): FlagFacts => ({
  kind,
  agent: 'verifier',
  scope: 'step',
  steps,
  evidence,
});

const freeRider = verifierFlag('free-rider', [25, 40], {
  ranges: [[25, 40]],
  windows: [
    window(25, 28, 0.0078125, [-0.005037918960558371, 0.02066291896055837], 0.7265625),
    window(37, 40, 0, [0, 0], 0.9453125),
  ],
  score: 4,
});

const decoupling = verifierFlag('decoupling', [2, 40], {
  rewardRho: 0.6284361061909314,
  rewardP: 0.000014121140662696894,
  shareRho: -0.9101507668129833,
  shareP: 0.0312,
  lastShare: 0.0523,
  from: 2,
  to: 40,
  score: 0.9101507668129833,
});

test('numbers read as figures: 3 significant digits, grouped integers, p-values never printed as 0', () => {
  assert.equal(significant(0.6284361061909314), '0.628');
  assert.equal(significant(-0.005037918960558371), '\u22120.00504');
  assert.equal(significant(1280), '1,280');
  assert.equal(significant(12345.678), '12,346');
  assert.equal(significant(Number.NaN), 'not computed');
  assert.equal(pValue(0), 'p < 0.001');
  assert.equal(pValue(4.0263716384600983e-16), 'p < 0.001');
  assert.equal(pValue(0.0312), 'p = 0.031');
  assert.equal(pValue(null), 'p not computed');
  assert.equal(interval([-0.005037918960558371, 0.02066291896055837]), '[\u22120.00504, 0.0207]');
});

test('a decoupling flag says both trends with their p-values in words', () => {
  assert.equal(
    flagMessage(decoupling),
    "decoupling: the team reward rises while verifier's credit share falls (steps 2–40): " +
      'team reward ρ = 0.63 (p < 0.001), credit share ρ = \u22120.91 (p = 0.031), final share 5.23%',
  );
});

test('a window flag gives the last window of several, with its interval and episode count', () => {
  assert.equal(
    flagEvidence(freeRider),
    'in each of 2 windows; the last (steps 37–40): mean credit 0 (90% CI [0, 0]) over 128 episodes, team reward 0.945, tolerance ±0.0363',
  );
  const one = { ...freeRider, evidence: { windows: [window(25, 28, 0.0078125, [-0.005, 0.0207], 0.7265625)] } };
  assert.equal(
    flagEvidence(one),
    'mean credit 0.00781 (90% CI [\u22120.005, 0.0207]) over 128 episodes, team reward 0.727, tolerance ±0.0363',
  );
});

test('the scope says which steps, which episodes, or the whole run', () => {
  assert.equal(flagScope(freeRider), 'steps 25–40');
  assert.equal(flagScope({ ...freeRider, scope: 'run', steps: [0, 40] }), 'steps 0–40, the whole run');
  assert.equal(flagScope({ ...freeRider, steps: [3, 3] }), 'step 3');
  const silent: FlagFacts = {
    kind: 'silent',
    agent: 'critic',
    scope: 'episode',
    episode: 's1-g0-r2',
    evidence: { silentEpisodes: 3, declaredEpisodes: 1280, share: 0.00234375 },
  };
  assert.equal(flagScope(silent), 'episode s1-g0-r2 and 2 more');
  assert.equal(
    flagMessage(silent),
    'silent: critic is declared in the roster but never acts (episode s1-g0-r2 and 2 more): silent in 3 of the 1,280 episodes that declare it',
  );
  assert.equal(flagScope({ kind: 'dominant', scope: 'run', evidence: {} }), 'the whole run');
});

test('evidence rows use words for keys, fold p into ρ, drop the internal score and list each window by steps', () => {
  const rows = flagEvidenceRows(decoupling.evidence);
  assert.deepEqual(
    rows.map((r) => [r.label, r.value]),
    [
      ['team reward trend', 'ρ = 0.63 (p < 0.001)'],
      ['credit share trend', 'ρ = \u22120.91 (p = 0.031)'],
      ['final credit share', '5.23%'],
    ],
  );
  const [ranges, windows] = flagEvidenceRows(freeRider.evidence);
  assert.deepEqual([ranges?.label, ranges?.value], ['flagged steps', 'steps 25–40']);
  assert.deepEqual([windows?.label, windows?.value], ['windows', '2 windows']);
  const first = windows?.children?.[0];
  assert.equal(first?.label, 'steps 25–28');
  assert.deepEqual(
    first?.children?.map((r) => [r.label, r.value]),
    [
      ['episodes', '128'],
      ['mean credit', '0.00781'],
      ['standard deviation', '0.0884'],
      ['90% interval', '[\u22120.00504, 0.0207]'],
      ['95% interval', '[\u22120.0075, 0.0231]'],
      ['team reward', '0.727'],
      ['team reward without it', '0.719'],
      ['McNemar test', 'p = 1'],
      ['tolerance', '±0.0363'],
      ['partners alone', 'tested'],
      ['episodes a verdict needs', '17'],
      ['credit values', '128 exact'],
    ],
  );
  // No figure anywhere keeps more than 3 significant digits.
  const all = JSON.stringify(flagEvidenceRows(freeRider.evidence));
  assert.doesNotMatch(all, /\.\d*[1-9]\d{3}/);
});

test('unknown kinds and keys still read as words, and odd evidence does not throw', () => {
  const odd: FlagFacts = {
    kind: 'new-kind',
    agent: null,
    scope: 'run',
    evidence: {
      someRatio: 0.123456,
      label: '<img src=x onerror=alert(1)>',
      windows: 'not a list',
      nested: { aB: [1, 2] },
    },
  };
  assert.equal(
    flagMessage(odd),
    'new-kind: the team was flagged new-kind (the whole run): some ratio 0.123, label <img src=x onerror=alert(1)>, windows not a list',
  );
  assert.deepEqual(
    flagEvidenceRows(odd.evidence).map((r) => [r.label, r.value]),
    [
      ['some ratio', '0.123'],
      ['label', '<img src=x onerror=alert(1)>'],
      ['windows', 'not a list'],
      ['nested', 'a b [1, 2]'],
    ],
  );
  assert.equal(flagEvidence({ kind: 'idle', scope: 'step', evidence: { windows: [null, 3] } }), '');
  assert.equal(flagEvidence({ kind: 'decoupling', scope: 'step', evidence: { share: 0.3123 } }), 'share 31.2%');
  assert.equal(flagEvidence({ kind: 'silent', scope: 'run', evidence: {} }), '');
});
