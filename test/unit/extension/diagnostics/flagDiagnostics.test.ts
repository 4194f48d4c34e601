import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flagDiagnostics } from '../../../../src/extension/diagnostics/flagDiagnostics';
import type { BrowseFlag } from '../../../../src/store/browseRepository';

function flag(fields: Partial<BrowseFlag>): BrowseFlag {
  return {
    flagId: 1,
    kind: 'idle',
    agent: 'verifier',
    scope: 'step',
    scopeId: '2..3',
    steps: [2, 3],
    score: null,
    evidence: {},
    location: { uri: 'run/a.jsonl', line: 4 },
    ...fields,
  };
}

test('each located flag becomes a diagnostic on its 1-based line with its kind as code', () => {
  const [d] = flagDiagnostics([flag({ kind: 'free-rider', evidence: { from: 2, meanCredit: 0.00123, score: 3 } })], []);
  assert.deepEqual(d, {
    uri: 'run/a.jsonl',
    line: 4,
    severity: 'warning',
    message: 'free-rider: verifier is idle while sharing a reward the team earns (steps 2–3): mean credit 0.00123',
    source: 'Credit Lens',
    code: 'free-rider',
  });
});

test('default severities: verdicts warn, silent informs, parse errors are errors', () => {
  const kinds = ['free-rider', 'idle', 'decoupling', 'dominant', 'silent', 'something-new'];
  const diagnostics = flagDiagnostics(
    kinds.map((kind) => flag({ kind })),
    [{ uri: 'run/b.jsonl', line: 7, reason: 'invalid JSON' }],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity]),
    [
      ['free-rider', 'warning'],
      ['idle', 'warning'],
      ['decoupling', 'warning'],
      ['dominant', 'warning'],
      ['silent', 'information'],
      ['something-new', 'warning'],
      ['parse-error', 'error'],
    ],
  );
  assert.deepEqual(diagnostics.at(-1), {
    uri: 'run/b.jsonl',
    line: 7,
    severity: 'error',
    message: 'unreadable line: invalid JSON',
    source: 'Credit Lens',
    code: 'parse-error',
  });
});

test('severities are configurable per kind, the others keep their default', () => {
  const diagnostics = flagDiagnostics(
    [flag({ kind: 'silent' }), flag({ kind: 'idle' })],
    [{ uri: 'x.jsonl', line: 1, reason: 'r' }],
    { silent: 'hint', 'parse-error': 'warning' },
  );
  assert.deepEqual(
    diagnostics.map((d) => d.severity),
    ['hint', 'warning', 'warning'],
  );
});

test('messages name the verdict, the agent (or the team) and the scope', () => {
  const messages = flagDiagnostics(
    [
      flag({ kind: 'silent', scope: 'episode', scopeId: 's1-g0-r1', steps: null, evidence: { silentEpisodes: 12 } }),
      flag({ kind: 'dominant', agent: null, scope: 'run', scopeId: '', steps: null }),
      flag({ kind: 'decoupling', steps: [5, 5], evidence: { windows: [1] } }),
    ],
    [],
  ).map((d) => d.message);
  assert.deepEqual(messages, [
    'silent: verifier is declared in the roster but never acts (episode s1-g0-r1 and 11 more): silent in 12 episodes',
    'dominant: the team holds almost all of the positive credit (the whole run)',
    "decoupling: the team reward rises while verifier's credit share falls (step 5)",
  ]);
});

test('flags without a location are skipped; line 0 (a whole file) shows on line 1', () => {
  const diagnostics = flagDiagnostics(
    [flag({ location: null })],
    [{ uri: 'run/c.jsonl', line: 0, reason: 'cannot read' }],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.uri, d.line, d.message]),
    [['run/c.jsonl', 1, 'unreadable file: cannot read']],
  );
});
