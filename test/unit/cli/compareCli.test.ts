import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { comparisonCsvColumns } from '../../../src/engine/report/formatComparison';
import { runCli as run } from '../../builders/cliRunner';
import { tempFolder } from '../../builders/episodeBuilder';

let demo = '';
const sides = ['--run', 'planner-solver-verifier', '--vs-run', 'planner-solver-verifier-credit'];

before(() => {
  demo = join(tempFolder(), 'demo');
  assert.equal(run('demo', '--out', demo, '--episodes', '1280').status, 0);
  assert.equal(run('audit', demo, '--no-text').status, 0);
});

describe('credit-lens compare', () => {
  it('prints the sides, the pairing, each agent with its differences, and the free-rider flag disappearing', () => {
    const result = run('compare', demo, ...sides);
    assert.equal(result.status, 0, result.stderr);
    const out = result.stdout;
    assert.match(out, /^Compare loo credit: A = planner-solver-verifier, B = planner-solver-verifier-credit$/m);
    assert.match(out, /paired by task: 1,280 pairs; unpaired 0 of 1,280 \(A\), 0 of 1,280 \(B\)/);
    assert.match(
      out,
      /^ {2}verifier\n {4}credit .*\n {4}share {2}\d+\.\d% → \d+\.\d%: B − A \+\d+\.\d pp \[\d+\.\d, \d+\.\d\], p < 0\.001 \(normal, n = 1,280\)$/m,
    );
    assert.match(out, /disappeared free-rider {2}verifier \(steps \d+–40\)/);
    assert.match(out, /note: .*task ids held several episodes/);
  });

  it('--json parses and holds the contract: pairing, agents with intervals, flags, notes; NaN as null', () => {
    const result = run('compare', demo, ...sides, '--json');
    assert.equal(result.status, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.equal(json.method, 'loo');
    assert.equal(json.pairing.pairs, 1280);
    const verifier = json.agents.find((a: { agent: string }) => a.agent === 'verifier');
    assert.ok(verifier.shareB > verifier.shareA);
    assert.ok(verifier.share.interval[0] > 0);
    assert.deepEqual(Object.keys(verifier.credit), ['n', 'meanA', 'meanB', 'difference', 'interval', 'p', 'test']);
    assert.deepEqual(json.flags.map((f: { kind: string; change: string }) => `${f.kind}:${f.change}`).sort(), [
      'decoupling:disappeared',
      'free-rider:disappeared',
    ]);
    assert.ok(json.notes.length > 0);
    // One step against another step that shares no task: no pair, so no number, printed as null.
    const empty = JSON.parse(
      run('compare', demo, '--run', 'planner-solver-verifier', '--steps', '1', '--vs', '2', '--json').stdout,
    );
    assert.equal(empty.reward.difference, null);
  });

  it('--csv has the documented columns, a reward row and a row per agent', () => {
    const result = run('compare', demo, ...sides, '--csv');
    assert.equal(result.status, 0, result.stderr);
    const [header, ...rows] = result.stdout.trim().split('\n');
    assert.equal(header, comparisonCsvColumns.join(','));
    assert.deepEqual(
      rows.map((r) => r.split(',')[0]),
      ['reward', 'planner', 'solver', 'verifier'],
    );
    const verifier = rows[3]?.split(',') ?? [];
    assert.equal(verifier.length, comparisonCsvColumns.length);
    const cell = (name: string): string => verifier[comparisonCsvColumns.indexOf(name as never)] ?? '';
    assert.equal(cell('pairs'), '1280');
    assert.ok(Number(cell('share_difference')) > 0 && Number(cell('share_ci_low')) > 0);
    assert.equal(cell('status_a'), 'exact');
  });

  it('--fail-on exits 3 naming the gate that tripped, and 0 when none does', () => {
    const tripped = run('compare', demo, ...sides, '--fail-on', 'share-drop=0.1');
    assert.equal(tripped.status, 3);
    assert.match(tripped.stderr, /gate tripped \(--fail-on share-drop=0\.1: planner's credit share fell by 0\.1\d\d\)/);
    assert.doesNotMatch(tripped.stderr, /verifier/);
    const passed = run('compare', demo, ...sides, '--fail-on', 'share-drop=0.5,flag=free-rider', '--json');
    assert.equal(passed.status, 0, passed.stderr);
    assert.equal(passed.stderr, '');
    const back = run(
      'compare',
      demo,
      '--run',
      'planner-solver-verifier-credit',
      '--vs-run',
      'planner-solver-verifier',
      '--fail-on',
      'flag=free-rider,credit-drop=0.1',
    );
    assert.equal(back.status, 3);
    assert.match(back.stderr, /flag=free-rider: verifier is flagged free-rider on B \(appeared\)/);
    assert.match(back.stderr, /credit-drop=0\.1: verifier's mean credit fell by 0\.1\d\d/);
  });

  it('gives a clear error and exit 2 for bad arguments, 1 when the index cannot answer', () => {
    const cases: [string[], number, RegExp][] = [
      [[...sides, '--fail-on', 'share-drop=lots'], 2, /--fail-on "share-drop=lots": share-drop=X takes a number ≥ 0/],
      [[...sides, '--fail-on', 'flag=lazy'], 2, /flag=KIND takes one of silent, idle, free-rider/],
      [[...sides, '--json', '--csv'], 2, /give --json or --csv, not both/],
      [['--run', 'planner-solver-verifier', '--steps', '9..1'], 2, /--steps 9\.\.1: the range is empty/],
      [[], 2, /holds 3 runs \(.*\): name one with --run/],
      [['--run', 'planner-solver-verifier'], 2, /both sides are planner-solver-verifier: give --vs-run NAME/],
      [['--run', 'nope', '--vs-run', 'routed-experts'], 1, /unknown run "nope"/],
      [
        [...sides, '--method', 'shapley'],
        1,
        /has no stored shapley credit; run `credit-lens credit .* --method shapley --run planner-solver-verifier` first/,
      ],
    ];
    for (const [args, status, message] of cases) {
      const result = run('compare', demo, ...args);
      assert.equal(result.status, status, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.equal(result.stdout, '');
    }
    const noIndex = run('compare', tempFolder());
    assert.equal(noIndex.status, 1);
    assert.match(noIndex.stderr, /no index for .*; run `credit-lens index/);
    const three = run('compare', demo, demo, demo);
    assert.equal(three.status, 2);
  });
});
