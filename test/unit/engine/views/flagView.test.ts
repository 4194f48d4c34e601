import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flagMessage, flagSummary, flagView } from '../../../../src/engine/views/flagView';
import type { BrowseFlag } from '../../../../src/store/browseRepository';

const flag: BrowseFlag = {
  flagId: 7,
  kind: 'decoupling',
  agent: 'verifier',
  scope: 'step',
  scopeId: '28..60',
  steps: [28, 60],
  score: 2.5,
  evidence: { from: 28, share: 0.3123, windows: [1, 2] },
  location: { uri: 'a.jsonl', line: 3 },
};

test('flagView(flag) gives the panel fields and the one-line summary the diagnostics use after the kind', () => {
  assert.deepEqual(flagView(flag), {
    flagId: 7,
    kind: 'decoupling',
    agent: 'verifier',
    scope: 'step',
    steps: [28, 60],
    score: 2.5,
    summary: "the team reward rises while verifier's credit share falls (steps 28–60): share 31.2%",
    evidence: [
      { label: 'share', value: '31.2%' },
      { label: 'windows', value: '0 windows', children: [] },
    ],
  });
  assert.equal(flagMessage(flag), `decoupling: ${flagSummary(flag)}`);
  assert.equal(
    flagSummary({ ...flag, kind: 'new-kind', agent: null, scope: 'run', scopeId: '', steps: null, evidence: {} }),
    'the team was flagged new-kind (the whole run)',
  );
});
