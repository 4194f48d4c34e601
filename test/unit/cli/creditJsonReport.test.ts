import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CreditJsonReport } from '../../../src/cli/creditJsonReport';

function written(fill: (report: CreditJsonReport) => void): { lines: string[]; json: unknown } {
  const lines: string[] = [];
  const report = new CreditJsonReport(
    { out: (line) => lines.push(line), err: () => undefined },
    { root: 'r', method: 'loo' },
  );
  fill(report);
  return { lines, json: JSON.parse(lines.join('\n')) };
}

test('the streamed report is the one JSON document: runs with their episodes, then the summary', () => {
  const episodes = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `e${String(i)}`, credit: [i, Number.NaN] }));
  const { json, lines } = written((report) => {
    report.run({ name: 'a', agents: [{ agent: 'x', ci: new Float64Array([0.5, 1]) }] }, episodes(3));
    report.run({ name: 'b "quoted"\n', agents: [] }, episodes(0));
    report.end({ values: { cached: 1 }, elapsedMs: 12, firstErrors: [] });
  });
  assert.deepEqual(json, {
    root: 'r',
    method: 'loo',
    runs: [
      {
        name: 'a',
        agents: [{ agent: 'x', ci: [0.5, 1] }],
        episodes: [
          { id: 'e0', credit: [0, null] },
          { id: 'e1', credit: [1, null] },
          { id: 'e2', credit: [2, null] },
        ],
      },
      { name: 'b "quoted"\n', agents: [], episodes: [] },
    ],
    values: { cached: 1 },
    elapsedMs: 12,
    firstErrors: [],
  });
  // One line per episode: no line holds the whole run.
  assert.equal(lines.filter((l) => l.includes('"id"')).length, 3);
});

test('a report without runs still parses, and nothing is written before the end', () => {
  const lines: string[] = [];
  const report = new CreditJsonReport(
    { out: (line) => lines.push(line), err: () => undefined },
    { root: 'r', method: 'owen' },
  );
  assert.equal(lines.length, 0);
  report.end({ values: {}, elapsedMs: 0, firstErrors: [] });
  assert.deepEqual(JSON.parse(lines.join('\n')), {
    root: 'r',
    method: 'owen',
    runs: [],
    values: {},
    elapsedMs: 0,
    firstErrors: [],
  });
});

test('a lazily produced run is written episode by episode, as the iterator yields', () => {
  const lines: string[] = [];
  const report = new CreditJsonReport(
    { out: (line) => lines.push(line), err: () => undefined },
    { root: 'r', method: 'loo' },
  );
  const seen: number[] = [];
  function* episodes(): Generator<{ id: number }> {
    for (let id = 0; id < 3; id++) {
      seen.push(lines.length);
      yield { id };
    }
  }
  report.run({ name: 'a' }, episodes());
  // Each episode is asked for only after the one before it was written.
  assert.deepEqual(seen, [seen[0], (seen[0] ?? 0) + 1, (seen[0] ?? 0) + 2]);
});
