import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GroundTruth } from '../../../../src/demo/auditScenarios/scenario';
import { combineScores, kindScore, mergeRanges, scoreFlags } from '../../../../src/demo/auditScenarios/scoreFlags';

const truth: GroundTruth[] = [
  { kind: 'free-rider', agent: 'verifier' },
  { kind: 'decoupling', agent: 'critic', steps: [12, 40] },
];

describe('scoreFlags', () => {
  it('an exact match is a true positive in its kind; every scored kind is reported', () => {
    const score = scoreFlags(truth, [
      { kind: 'free-rider', agent: 'verifier' },
      { kind: 'decoupling', agent: 'critic', steps: [12, 40] },
    ]);
    assert.deepEqual(score['free-rider'], { tp: 1, fp: 0, fn: 0, precision: 1, recall: 1 });
    assert.deepEqual(score['decoupling'], { tp: 1, fp: 0, fn: 0, precision: 1, recall: 1 });
    assert.deepEqual(Object.keys(score).sort(), ['decoupling', 'dominant', 'free-rider', 'idle', 'silent']);
    assert.deepEqual(score['idle'], { tp: 0, fp: 0, fn: 0, precision: 1, recall: 1 });
  });

  it('the wrong agent is a false positive and leaves a false negative', () => {
    const score = scoreFlags(truth, [{ kind: 'free-rider', agent: 'planner' }]);
    assert.deepEqual(score['free-rider'], { tp: 0, fp: 1, fn: 1, precision: 0, recall: 0 });
    assert.deepEqual(score['decoupling'], { tp: 0, fp: 0, fn: 1, precision: 1, recall: 0 });
  });

  it('the wrong kind for the right agent does not match', () => {
    const score = scoreFlags(truth, [{ kind: 'idle', agent: 'verifier' }]);
    assert.deepEqual(score['idle'], { tp: 0, fp: 1, fn: 0, precision: 0, recall: 1 });
    assert.equal(score['free-rider']?.fn, 1);
  });

  it('step ranges must overlap by IoU ≥ minStepOverlap', () => {
    // [30, 40] vs truth [12, 40]: 11 / 29 < 0.5.
    assert.equal(scoreFlags(truth, [{ kind: 'decoupling', agent: 'critic', steps: [30, 40] }])['decoupling']?.tp, 0);
    assert.deepEqual(
      scoreFlags(truth, [{ kind: 'decoupling', agent: 'critic', steps: [30, 40] }], { minStepOverlap: 0.3 })[
        'decoupling'
      ],
      kindScore(1, 0, 0),
    );
    // [20, 40]: 21 / 29 ≥ 0.5; a range larger than the truth is penalised too: [1, 40] gives 29 / 40.
    assert.equal(scoreFlags(truth, [{ kind: 'decoupling', agent: 'critic', steps: [20, 40] }])['decoupling']?.tp, 1);
    assert.equal(
      scoreFlags(truth, [{ kind: 'decoupling', agent: 'critic', steps: [1, 40] }], { minStepOverlap: 0.75 })[
        'decoupling'
      ]?.tp,
      0,
    );
    // A flag or a truth without steps covers the whole run.
    assert.equal(scoreFlags(truth, [{ kind: 'decoupling', agent: 'critic' }])['decoupling']?.tp, 1);
    assert.equal(scoreFlags(truth, [{ kind: 'free-rider', agent: 'verifier', steps: [3, 4] }])['free-rider']?.tp, 1);
  });

  it('several windows of one (kind, agent) merge into one flag', () => {
    const windows = [
      { kind: 'decoupling', agent: 'critic', steps: [11, 20] as const },
      { kind: 'decoupling', agent: 'critic', steps: [21, 30] as const },
      { kind: 'decoupling', agent: 'critic', steps: [31, 40] as const },
    ];
    assert.deepEqual(scoreFlags(truth, windows)['decoupling'], kindScore(1, 0, 0));
    // Two of the three windows only cover [21, 40]: 20 / 29.
    assert.deepEqual(scoreFlags(truth, windows.slice(1))['decoupling'], kindScore(1, 0, 0));
    assert.deepEqual(scoreFlags(truth, windows.slice(2))['decoupling'], kindScore(0, 1, 1));
    assert.deepEqual(
      mergeRanges([
        [21, 30],
        [5, 8],
        [9, 10],
        [25, 40],
      ]),
      [
        [5, 10],
        [21, 40],
      ],
    );
  });

  it('empty truth: every scored flag is a false positive; empty observed: every truth a false negative', () => {
    const none = scoreFlags(
      [],
      [
        { kind: 'idle', agent: 'a' },
        { kind: 'idle', agent: 'b' },
        { kind: 'Sole Performer', agent: 'c' },
      ],
    );
    assert.deepEqual(none['idle'], kindScore(0, 2, 0));
    assert.deepEqual(none['dominant'], kindScore(0, 1, 0));
    const missed = scoreFlags(truth, []);
    assert.deepEqual(missed['free-rider'], { tp: 0, fp: 0, fn: 1, precision: 1, recall: 0 });
    assert.deepEqual(scoreFlags([], [])['silent'], { tp: 0, fp: 0, fn: 0, precision: 1, recall: 1 });
  });

  it('ignores kinds that are not verdicts (contributes, harmful); a flag without an agent is a false positive', () => {
    const score = scoreFlags(truth, [
      { kind: 'contributes', agent: 'planner' },
      { kind: 'harmful' },
      { kind: 'free_rider' },
    ]);
    assert.equal(score['contributes'], undefined);
    assert.deepEqual(score['free-rider'], kindScore(0, 1, 1));
  });
});

describe('combineScores', () => {
  it('sums counts per kind and overall, then recomputes precision and recall', () => {
    const a = scoreFlags(truth, [
      { kind: 'free-rider', agent: 'verifier' },
      { kind: 'idle', agent: 'x' },
    ]);
    const b = scoreFlags([{ kind: 'idle', agent: 'x' }], [{ kind: 'idle', agent: 'x' }]);
    const combined = combineScores([a, b]);
    assert.deepEqual(combined['idle'], kindScore(1, 1, 0));
    assert.deepEqual(combined['free-rider'], kindScore(1, 0, 0));
    assert.deepEqual(combined['decoupling'], kindScore(0, 0, 1));
    assert.deepEqual(combined.overall, kindScore(2, 1, 1));
    assert.deepEqual(combineScores([]), { overall: kindScore(0, 0, 0) });
  });
});
