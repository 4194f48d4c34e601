import assert from 'node:assert/strict';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { cliPath, runCli as run } from '../../builders/cliRunner';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';

const fixture = join(__dirname, '../../fixtures/canonical/unknown-agents');
const roster = 'who is not in the roster (planner, solver)';

before(() => {
  assert.ok(existsSync(cliPath), 'dist/cli.js missing: run `node esbuild.mjs` first');
});

test('credit-lens index reports each reference to an unknown agent at file:line and indexes every line', () => {
  const root = tempFolder();
  cpSync(fixture, root, { recursive: true });
  const indexed = run('index', root);
  assert.equal(indexed.status, 0, indexed.stderr);
  assert.match(indexed.stdout, /episodes\s+9/);
  for (const expected of [
    `rollouts.jsonl:2: counterfactuals[1].agents names "critic", ${roster}; that counterfactual was not indexed`,
    `rollouts.jsonl:3: coalitions[1].agents names "critic", ${roster}; that coalition value was not indexed`,
    `rollouts.jsonl:4: labels[0].agent names "critic", ${roster}; the label was indexed without its agent`,
    `rollouts.jsonl:5: final.agent names "critic", ${roster}; the final answer was indexed without its agent`,
    `rollouts.jsonl:6: routing.probs names "critic", ${roster}; the routing decision was not indexed`,
    `rollouts.jsonl:7: routing.selected names "critic", ${roster}; the routing decision was not indexed`,
  ]) {
    assert.ok(indexed.stdout.includes(expected), `missing from the index output: ${expected}\n${indexed.stdout}`);
  }
  const summary = JSON.parse(run('info', root, '--json').stdout).summary;
  assert.equal(summary.episodes, 9);
  assert.equal(summary.errorCount, 7);
  assert.deepEqual(summary.errors[0], {
    file: 'rollouts.jsonl',
    line: 2,
    reason: `counterfactuals[1].agents names "critic", ${roster}; that counterfactual was not indexed`,
  });
});

test('credit-lens credit --method routing accepts probabilities at the index tolerance; an unknown expert was reported at index time; errors name experts', () => {
  const root = tempFolder();
  const agents = [
    { name: 'router', kind: 'orchestrator' as const },
    { name: 'math', kind: 'llm' as const },
    { name: 'code', kind: 'llm' as const },
  ];
  const messages = [
    { agent: 'router', content: 'route: code' },
    { agent: 'code', content: 'done' },
  ];
  const boundary = episode('boundary', {
    agents,
    messages,
    final: { answer: 'done', agent: 'code' },
    routing: { probs: { math: 0.5, code: 0.499 }, selected: 'code' },
  });
  const unknown = episode('unknown', {
    agents,
    messages,
    final: { answer: 'done', agent: 'code' },
    routing: { probs: { math: 0.5, code: 0.2, law: 0.3 }, selected: 'code' },
  });
  const deterministic = episode('deterministic', {
    agents,
    messages,
    routing: { probs: { math: 0, code: 1 }, selected: 'code' },
  });
  writeFileSync(join(root, 'a.jsonl'), jsonl(boundary, unknown, deterministic));
  const indexed = run('index', root);
  assert.equal(indexed.status, 0, indexed.stderr);
  assert.match(
    indexed.stdout,
    /a\.jsonl:2: routing\.probs names "law", who is not in the roster \(router, math, code\); the routing decision was not indexed/,
  );
  const credit = run('credit', root, '--method', 'routing', '--csv');
  assert.doesNotMatch(credit.stderr, /sum to/);
  // Not identifiable, with the reason and the remedy, as a CSV row without a value.
  assert.match(
    credit.stdout,
    /,unknown,.*,not-identifiable,,routing credit needs the logged router probabilities .*this episode logs no routing decision,"?log the router's probabilities/,
  );
  assert.match(credit.stdout, /,deterministic,.*,not-identifiable,,.*\(expert ""code"" has probability 1\)/);
  const rows = credit.stdout.trim().split('\n').slice(1);
  assert.ok(
    rows.some((r) => r.includes(',boundary,') && r.includes(',code,')),
    credit.stdout,
  );
});
