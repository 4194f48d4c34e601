import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

let demo = '';

before(() => {
  demo = join(tempFolder(), 'demo');
  assert.equal(run('demo', '--out', demo, '--episodes', '1280').status, 0);
});

test('credit-lens audit --json prints the issue format for one run', () => {
  const result = run('audit', demo, '--run', 'planner-solver-verifier', '--json');
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout);
  assert.equal(json.run, 'planner-solver-verifier');
  const verifier = json.agents.find((a: { agent: string }) => a.agent === 'verifier');
  assert.deepEqual(Object.keys(verifier).slice(0, 6), [
    'agent',
    'episodes',
    'meanCredit',
    'ci',
    'creditShare',
    'tokenShare',
  ]);
  assert.deepEqual(verifier.flags, ['free-rider', 'decoupling']);
  const flag = json.flags.find((f: { kind: string }) => f.kind === 'free-rider');
  assert.equal(flag.agent, 'verifier');
  assert.equal(flag.steps[1], 40);
  assert.ok(flag.evidence.windows.length > 0);
});

test('credit-lens audit --sarif locates each flag at its trace file and line', () => {
  const result = run('audit', demo, '--sarif');
  assert.equal(result.status, 0, result.stderr);
  const sarif = JSON.parse(result.stdout);
  assert.equal(sarif.version, '2.1.0');
  const results = sarif.runs[0].results;
  assert.ok(results.length >= 2);
  for (const r of results) {
    const location = r.locations[0].physicalLocation;
    assert.match(location.artifactLocation.uri, /^planner-solver-verifier\/rollouts\/step_\d{4}\.jsonl$/);
    assert.ok(location.region.startLine >= 1);
    assert.equal(location.artifactLocation.uriBaseId, '%SRCROOT%');
  }
  assert.ok(sarif.runs[0].tool.driver.rules.some((rule: { id: string }) => rule.id === 'free-rider'));
});

test('credit-lens audit --fail-on exits 3 only when such a flag is raised, 2 on an unknown kind', () => {
  assert.equal(run('audit', demo, '--fail-on', 'free-rider').status, 3);
  assert.equal(run('audit', demo, '--fail-on', 'dominant,silent').status, 0);
  assert.equal(run('audit', demo, '--fail-on', 'lazy').status, 2);
  assert.equal(run('audit', demo, '--threshold', 'minEpisodesPerWindow=oops').status, 2);
});

test('credit-lens audit --no-text judges from credit alone and says the text columns are blank', () => {
  const withText = JSON.parse(run('audit', demo, '--run', 'planner-solver-verifier', '--json').stdout);
  const result = run('audit', demo, '--run', 'planner-solver-verifier', '--json', '--no-text');
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout);
  const rates = (report: { agents: { emptyRate: number | null }[] }) => report.agents.map((a) => a.emptyRate);
  assert.ok(rates(withText).every((r) => typeof r === 'number'));
  assert.ok(rates(json).every((r) => r === null));
  // The credit verdict does not depend on the text: the verifier is still the free rider.
  assert.deepEqual(json.agents.find((a: { agent: string }) => a.agent === 'verifier').flags, [
    'free-rider',
    'decoupling',
  ]);
  const text = run('audit', demo, '--run', 'planner-solver-verifier', '--no-text');
  assert.match(text.stdout, /empty, copied, answer: the message text was not read/);
  assert.doesNotMatch(run('audit', demo, '--run', 'planner-solver-verifier').stdout, /text was not read/);
});
