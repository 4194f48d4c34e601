import '../../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import type { AuditOptions, AuditResult } from '../../../../src/engine/audit/auditJob';
import type { CreditJobHooks, CreditJobOptions, CreditJobResult } from '../../../../src/engine/credit/creditJob';
import { exportCommand } from '../../../../src/extension/commands/exportCommand';
import { creditHeadline, recomputeCreditCommand } from '../../../../src/extension/commands/recomputeCreditCommand';
import { runAuditCommand } from '../../../../src/extension/commands/runAuditCommand';
import { showLogCommand } from '../../../../src/extension/commands/showLogCommand';
import type { CreditOutputRow } from '../../../../src/store/creditRepository';
import { FailureTally } from '../../../../src/engine/credit/failureTally';
import { fake, Uri as FakeUri, type FakeLogOutputChannel } from '../../fakes/vscode';

const creditResult = (computed = 1280, failures = 0, unidentified = 0): CreditJobResult => {
  const tally = new FailureTally();
  for (let i = 0; i < failures; i++)
    tally.add({ episodeId: i, reason: 'boom', where: `r.jsonl:${i + 1}`, episode: `e${i}`, step: 0 });
  for (let i = 0; i < unidentified; i++)
    tally.add({
      episodeId: 100 + i,
      reason: 'no router',
      status: 'not-identifiable',
      remedy: 'log it',
      where: `r.jsonl:${i + 100}`,
      episode: `e${100 + i}`,
      step: 0,
    });
  return {
    runs: [
      {
        run: { runId: 1, name: 'psv', root: '', mechanism: 'pipeline', evaluatorJson: null },
        params: { method: 'loo', params: {}, hash: 'h' },
        evaluator: 'final-answer',
        computed,
        ...tally.report(),
        agents: [
          { agent: 'planner', episodes: computed, mean: 0.3, ci: [0.2, 0.4], early: 0.3, late: 0.31 },
          { agent: 'verifier', episodes: computed, mean: 0.1, ci: [0, 0.2], early: 0.259, late: 0 },
        ],
      },
    ],
    values: { logged: 0, cached: 0, evaluated: 10 },
    elapsedMs: 5,
  } as unknown as CreditJobResult;
};

function stubCredit(result = creditResult()) {
  const calls: { options: CreditJobOptions; hooks: CreditJobHooks | undefined }[] = [];
  const runCredit = (options: CreditJobOptions, hooks?: CreditJobHooks): Promise<CreditJobResult> => {
    calls.push({ options, hooks });
    return Promise.resolve(result);
  };
  return { calls, runCredit };
}

function log(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Credit Lens', { log: true });
}

/** The fake behind the last channel made by {@link log}. */
const lastChannel = (): FakeLogOutputChannel => fake.channels.at(-1)!;

const formatCreditReport = (_root: string, method: string): string[] => [`report ${method}`];
const root = vscode.Uri.file('/runs/r');

/** Answers quick picks by label prefix, in order; input boxes with `inputs` in order. */
function script(picks: string[], inputs: string[] = []): void {
  fake.answerQuickPick = (items) => {
    const want = picks.shift();
    return (items as { label: string }[]).find((item) => want !== undefined && item.label.includes(want));
  };
  fake.answerInputBox = () => inputs.shift();
}

beforeEach(() => fake.reset());

test('recompute: the default method is offered first and the picks become runCreditJob options', async () => {
  fake.settings.set('creditLens.credit.defaultMethod', { globalValue: 'shapley' });
  const stub = stubCredit();
  const channel = log();
  script(['LOO'], ['500', '3..7']);
  await recomputeCreditCommand({ log: channel, formatCreditReport, runCredit: stub.runCredit })(root);
  assert.equal((fake.quickPicks[0]?.items[0] as { label: string }).label, 'Shapley');
  assert.deepEqual(stub.calls[0]?.options, {
    root: '/runs/r',
    method: 'loo',
    evaluator: { kind: 'builtin', name: 'final-answer', options: {} },
    budget: 500,
    steps: [3, 7],
    concurrency: 4,
  });
  assert.equal(fake.progress[0]?.options.cancellable, true);
  assert.ok(lastChannel().lines.includes('[info] report loo'));
  assert.deepEqual(
    fake.messages.map((m) => [m.level, m.text]),
    [['info', 'LOO credit: 1,280 episodes; verifier 0.259 → 0.000']],
  );
});

test('recompute on a run of the Runs view: the pass is that run alone, and the notification names it', async () => {
  const stub = stubCredit();
  script(['LOO'], ['', '']);
  const item = { kind: 'run', folder: root, run: { name: 'pipeline', root: 'runs/pipeline' } };
  await recomputeCreditCommand({ log: log(), formatCreditReport, runCredit: stub.runCredit })(item);
  assert.equal(stub.calls[0]?.options.root, '/runs/r');
  assert.equal(stub.calls[0]?.options.run, 'runs/pipeline');
  assert.match(fake.progress[0]?.options.title ?? '', /credit of \/runs\/r › runs\/pipeline$/);
});

test('recompute: methods without counterfactuals ask for neither evaluator nor budget', async () => {
  const stub = stubCredit();
  script(['Shared'], ['']);
  await recomputeCreditCommand({ log: log(), formatCreditReport, runCredit: stub.runCredit })(root);
  assert.equal(fake.quickPicks.length, 1);
  assert.equal(fake.inputBoxes.length, 1);
  assert.equal(stub.calls[0]?.options.method, 'shared');
  assert.equal(stub.calls[0]?.options.evaluator, undefined);
});

test('recompute: cancelling the progress notification is seen by isCancelled', async () => {
  let seen: boolean[] = [];
  const runCredit = (_options: CreditJobOptions, hooks?: CreditJobHooks): Promise<CreditJobResult> => {
    seen.push(hooks?.isCancelled?.() ?? false);
    fake.progress[0]?.cancel();
    seen.push(hooks?.isCancelled?.() ?? false);
    return Promise.resolve(creditResult(10));
  };
  script(['Routing'], ['']);
  await recomputeCreditCommand({ log: log(), formatCreditReport, runCredit })(root);
  assert.deepEqual(seen, [false, true]);
  assert.match(fake.messages[0]?.text ?? '', /^Routing credit \(cancelled\): 10 episodes/);
  seen = [];
});

test('recompute: untrusted workspace + workspace command → the command is listed as disabled, built-in used, warning shown', async () => {
  fake.isTrusted = false;
  fake.settings.set('creditLens.evaluator.command', { workspaceValue: 'python eval.py' });
  const stub = stubCredit();
  const channel = log();
  script(['LOO', 'Command'], ['', '']);
  await recomputeCreditCommand({ log: channel, formatCreditReport, runCredit: stub.runCredit })(root);
  const evaluatorItems = fake.quickPicks[1]?.items as { label: string; description: string }[];
  assert.match(evaluatorItems[1]?.label ?? '', /\(disabled\)/);
  assert.equal(evaluatorItems[1]?.description, 'the workspace is not trusted');
  assert.deepEqual(stub.calls[0]?.options.evaluator, { kind: 'builtin', name: 'final-answer', options: {} });
  const warning = fake.messages.find((m) => m.level === 'warning');
  assert.match(warning?.text ?? '', /not trusted/);
  assert.deepEqual(warning?.items, ['Manage Workspace Trust']);
  assert.ok(lastChannel().lines.some((line) => line.startsWith('[warn] Credit Lens did not run')));
});

test('recompute: a trusted workspace command is used with the configured timeout and concurrency', async () => {
  fake.settings.set('creditLens.evaluator.command', { workspaceValue: 'python eval.py' });
  fake.settings.set('creditLens.evaluator.timeoutMs', { globalValue: 5000 });
  const stub = stubCredit();
  script(['LOO', 'Command'], ['', '']);
  await recomputeCreditCommand({ log: log(), formatCreditReport, runCredit: stub.runCredit })(root);
  assert.deepEqual(stub.calls[0]?.options.evaluator, {
    kind: 'command',
    command: 'python eval.py',
    timeoutMs: 5000,
    concurrency: 4,
  });
});

test('recompute: invalid settings stop the command with a message naming the setting', async () => {
  fake.settings.set('creditLens.evaluator.concurrency', { globalValue: 0 });
  const stub = stubCredit();
  await recomputeCreditCommand({ log: log(), formatCreditReport, runCredit: stub.runCredit })(root);
  assert.equal(stub.calls.length, 0);
  assert.match(fake.messages[0]?.text ?? '', /creditLens\.evaluator\.concurrency/);
});

test('recompute: a fatal error is an actionable error message', async () => {
  const channel = log();
  script(['Shared'], ['']);
  await recomputeCreditCommand({
    log: channel,
    formatCreditReport,
    runCredit: () => Promise.reject(new Error('database is locked')),
  })(root);
  assert.deepEqual(
    fake.messages.map((m) => [m.level, m.items]),
    [['error', ['Show Log']]],
  );
  assert.match(fake.messages[0]?.text ?? '', /could not compute credit for \/runs\/r: database is locked/);
  assert.ok(lastChannel().lines.some((line) => line.startsWith('[error]')));
});

test('creditHeadline counts failures', () => {
  assert.equal(
    creditHeadline('loo', creditResult(3, 2)),
    'LOO credit: 3 episodes; verifier 0.259 → 0.000; 2 episodes failed',
  );
  assert.equal(
    creditHeadline('loo', creditResult(3, 1, 4)),
    'LOO credit: 3 episodes; verifier 0.259 → 0.000; 4 episodes not identifiable (see the log for why and what would answer it); 1 episode failed',
  );
});

const auditResult: AuditResult = {
  runs: [
    {
      run: 'psv',
      method: 'loo',
      agents: [],
      trends: [],
      unreachable: [],
      flags: [
        { kind: 'free-rider', agent: 'verifier', scope: 'run', evidence: {} },
        { kind: 'free-rider', agent: 'x', scope: 'run', evidence: {} },
        { kind: 'silent', agent: 'y', scope: 'run', evidence: {} },
      ],
    },
  ],
  elapsedMs: 1,
};

test('runAudit: thresholds from settings, formatted lines logged, onAudited called, counts shown with Show Problems', async () => {
  fake.settings.set('creditLens.audit.thresholds', { globalValue: { alpha: 0.01 } });
  const channel = log();
  const audited: [string, AuditResult][] = [];
  let options: unknown;
  let problemsShown = 0;
  vscode.commands.registerCommand('workbench.actions.view.problems', () => problemsShown++);
  fake.answerMessage = () => 'Show Problems';
  await runAuditCommand({
    log: channel,
    formatAudit: (report) => [`audit ${report.run}`],
    onAudited: (folder, result) => audited.push([folder.fsPath, result]),
    runAudit: (o) => ((options = o), Promise.resolve(auditResult)),
  })(root);
  assert.equal((options as { thresholds: { alpha: number } }).thresholds.alpha, 0.01);
  assert.ok(lastChannel().lines.includes('[info] audit psv'));
  assert.deepEqual(audited, [['/runs/r', auditResult]]);
  assert.deepEqual(
    fake.messages.map((m) => [m.level, m.text, m.items]),
    [['warning', 'Audit of 1 run: 3 flags (2 free-rider, 1 silent)', ['Show Problems', 'Show Log']]],
  );
  assert.equal(problemsShown, 1);
});

const row = (episode: number, agent: string, value: number): CreditOutputRow => ({
  episode_id: episode,
  external_id: `e${episode}`,
  train_step: 1,
  group_id: 'g',
  outcome: 1,
  agent,
  message_seq: null,
  method: 'loo',
  value,
  stderr: null,
  ci_low: null,
  ci_high: null,
  advantage: null,
  approximate: 0,
  source: 'checked',
  status: 'exact',
  intervention: 'remove',
});

const formatters = {
  csvHeader: 'run,episode,agent,value',
  csvLine: (run: string, r: CreditOutputRow) => `${run},${r.external_id},${r.agent},${String(r.value)}`,
  episodesJson: function* (rows: Iterable<CreditOutputRow>) {
    for (const r of rows) yield { id: r.external_id, agent: r.agent };
  },
  auditSarif: (_root: string, reports: readonly { run: string }[], version: string) => ({
    version: '2.1.0',
    tool: version,
    runs: reports.map((r) => r.run),
  }),
};

function exportRunCredit(options: CreditJobOptions, hooks?: CreditJobHooks): Promise<CreditJobResult> {
  const result = creditResult(2);
  hooks?.onRunStored?.(result.runs[0]!, [row(1, 'a', 0.5), row(2, 'b', 0.25)][Symbol.iterator](), () =>
    [][Symbol.iterator](),
  );
  assert.equal(options.method, 'loo');
  return Promise.resolve(result);
}

for (const [label, expected] of [
  ['CSV', 'run,episode,agent,value\npsv,e1,a,0.5\npsv,e2,b,0.25\n'],
  ['JSON Lines', '{"run":"psv","id":"e1","agent":"a"}\n{"run":"psv","id":"e2","agent":"b"}\n'],
  ['SARIF', `${JSON.stringify({ version: '2.1.0', tool: '0.1.0', runs: ['psv'] }, null, 2)}\n`],
] as const) {
  test(`export ${label} writes the file through workspace.fs`, async () => {
    script([label]);
    fake.answerSaveDialog = () => FakeUri.file('/out/file');
    await exportCommand({
      log: log(),
      formatters,
      version: '0.1.0',
      runCredit: exportRunCredit,
      runAudit: () => Promise.resolve(auditResult),
    })(root);
    assert.equal(fake.writtenFiles.length, 1);
    assert.equal(fake.writtenFiles[0]?.uri.fsPath, '/out/file');
    assert.equal(new TextDecoder().decode(fake.writtenFiles[0]?.content), expected);
    assert.equal(fake.messages.at(-1)?.level, 'info');
  });
}

test('export: dismissing the save dialog writes nothing', async () => {
  script(['CSV']);
  await exportCommand({ log: log(), formatters, version: '0.1.0', runCredit: exportRunCredit })(root);
  assert.equal(fake.writtenFiles.length, 0);
});

test('showLog reveals the channel', async () => {
  const channel = log();
  await showLogCommand({ log: channel })();
  assert.equal(lastChannel().shown, 1);
});

const runItem = { kind: 'run', folder: root, run: { name: 'pipeline', root: 'runs/pipeline' } };

test('runAudit on a run of the Runs view audits that run alone', async () => {
  let options: AuditOptions | undefined;
  await runAuditCommand({
    log: log(),
    formatAudit: () => [],
    onAudited: () => undefined,
    runAudit: (o) => ((options = o), Promise.resolve(auditResult)),
  })(runItem);
  assert.equal(options?.root, '/runs/r');
  assert.equal(options?.run, 'runs/pipeline');
  assert.match(fake.progress[0]?.options.title ?? '', /auditing \/runs\/r › runs\/pipeline$/);
});

for (const [label, file] of [
  ['CSV', 'credit-lens-pipeline-loo.csv'],
  ['SARIF', 'credit-lens-pipeline-audit.sarif'],
] as const) {
  test(`export ${label} on a run of the Runs view exports that run alone, under a name that says so`, async () => {
    script([label]);
    fake.answerSaveDialog = () => FakeUri.file('/out/file');
    const asked: { run?: string }[] = [];
    await exportCommand({
      log: log(),
      formatters,
      version: '0.1.0',
      runCredit: (options, hooks) => (asked.push(options), exportRunCredit(options, hooks)),
      runAudit: (options) => (asked.push(options), Promise.resolve(auditResult)),
    })(runItem);
    assert.deepEqual(
      asked.map((o) => o.run),
      ['runs/pipeline'],
    );
    const dialog = fake.saveDialogs[0] as { defaultUri: vscode.Uri };
    assert.equal(dialog.defaultUri.fsPath, `/runs/r/${file}`);
    assert.equal(fake.writtenFiles.length, 1);
  });
}
