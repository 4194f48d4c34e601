// The webview benchmark's report: medians and worst runs against each budget, a miss marked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatWebviewOpen, type WebviewOpenResult } from '../../../bench/webviewOpen';

const result: WebviewOpenResult = {
  repeat: 3,
  loadBefore: 0.5,
  loadAfter: 1.25,
  cases: [
    { name: 'fast', budgetMs: 1000, webviewBudgetMs: 200, openMs: [300, 100, 2500], webviewMs: [10, 250, 240] },
    { name: 'lanes', budgetMs: 1000, webviewBudgetMs: null, openMs: [1200, 1100, 900], webviewMs: [] },
  ],
};

test('each view is judged by its median, with its worst run beside it', () => {
  const lines = formatWebviewOpen(result).split('\n');
  assert.match(lines[0] ?? '', /median of 3 runs after one warm-up \(load 0\.50 → 1\.25\)/);
  assert.equal(lines[4], '| fast | 300 ms (worst 2500 ms) | 1000 ms | yes | 240 ms (worst 250 ms) | 200 ms: **no** |');
  assert.equal(lines[5], '| lanes | 1100 ms (worst 1200 ms) | 1000 ms | **no** | — | — |');
});
