import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, beforeEach, test } from 'node:test';
import * as vscode from 'vscode';
import type { ChatClientStats } from '../../../src/core/chat';
import type { CreditJobHooks, CreditJobOptions, CreditJobResult } from '../../../src/engine/credit/creditJob';
import { runIndexJob } from '../../../src/engine/indexJob';
import { recomputeCreditCommand } from '../../../src/extension/commands/recomputeCreditCommand';
import { activate } from '../../../src/extension/extension';
import { loadConfig, type CreditLensConfig } from '../../../src/extension/config';
import { DashboardPanel } from '../../../src/extension/panels/dashboardPanel';
import { EpisodePanel } from '../../../src/extension/panels/episodePanel';
import {
  clearReplayApiKeyCommand,
  replayApiKeySecret,
  setReplayApiKeyCommand,
} from '../../../src/extension/replay/replayKey';
import type { KeyedReplayChoice, ReplayEstimate, ReplayJobHooks } from '../../../src/extension/replay/replaySeams';
import { DashboardReadyCommand, DashboardRecomputeCommand } from '../../../src/protocol/dashboardPanel';
import {
  CancelRecomputeCommand,
  DidChangeEpisodeNotification,
  DidChangeRecomputeNotification,
  EpisodeReadyCommand,
  RecomputeCommand,
  type EpisodeViewData,
  type RecomputeParams,
  type RecomputeProgress,
} from '../../../src/protocol/episodePanel';
import type { IpcMessage } from '../../../src/protocol/ipc';
import { openDatabase } from '../../../src/store/database';
import { EpisodeLookup } from '../../../src/store/episodeLookup';
import { episode, jsonl, tempFolder } from '../../builders/episodeBuilder';
import { fakeExtensionContext, FakeSecretStorage } from '../fakes/extensionContext';
import { fake, type FakeLogOutputChannel, type FakeWebviewPanel } from '../fakes/vscode';

// The VS Code side of replay (docs/replay.md "In VS Code"): the setting under workspace trust, the
// API key in secret storage, the estimate confirmed in a modal dialog, progress with calls, tokens
// and time, cancellation through an AbortSignal, and the key never in a log line, a notification or
// a webview message. The engine is a fake here (its estimate and runner are injected).

const key = 'sk-test-SECRET-5f1e2d';
const url = 'http://127.0.0.1:8000/v1';
const estimate: ReplayEstimate = { calls: 1240, promptTokens: 912_000, completionTokens: 45_200 };
const question = 'Replay 1,240 calls (~0.9 M prompt tokens, ~45.2 k completion tokens) on http://127.0.0.1:8000/v1?';

let root: string;
let episodeId: number;

before(async () => {
  root = tempFolder();
  writeFileSync(join(root, 'a.jsonl'), jsonl(episode('e1'), episode('e2', { step: 2 })));
  await runIndexJob({ root, search: true });
  const db = openDatabase(join(root, '.credit-lens', 'index.sqlite'), { readonly: true });
  episodeId = new EpisodeLookup(db).byExternalId('e1')[0]!.episodeId;
  db.close();
});

beforeEach(() => {
  fake.reset();
  fake.settings.set('creditLens.evaluator.replay', { globalValue: { url, model: 'policy' } });
  // The modal confirmation is accepted unless a test says otherwise.
  fake.answerMessage = (m) => (m.modal ? 'Replay' : undefined);
});

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

function config(): CreditLensConfig {
  const read = loadConfig();
  assert.ok(read.ok, read.ok ? '' : read.error);
  return read.value;
}

function stats(calls: number): ChatClientStats {
  return { calls, failedCalls: 0, retries: 0, promptTokens: calls * 700, completionTokens: calls * 40, elapsedMs: 10 };
}

function result(computed: number, failures: { where: string; reason: string }[] = []): CreditJobResult {
  return {
    runs: [
      {
        computed,
        failures: failures.map((f) => ({ episodeId: 1, ...f })),
        failed: failures.length,
        unidentified: 0,
        agents: [],
      },
    ],
    values: { logged: 0, cached: 0, evaluated: 40 },
    elapsedMs: 5,
  } as unknown as CreditJobResult;
}

/** A fake engine: records the estimate's and the run's options; the run reports replay statistics. */
function fakeEngine(run: (hooks: ReplayJobHooks) => Promise<CreditJobResult> = () => Promise.resolve(result(1))) {
  const estimated: CreditJobOptions[] = [];
  const ran: { options: CreditJobOptions; hooks: ReplayJobHooks }[] = [];
  return {
    estimated,
    ran,
    estimateReplay: (options: CreditJobOptions) => {
      estimated.push(options);
      return Promise.resolve(estimate);
    },
    runCredit: async (options: CreditJobOptions, hooks?: CreditJobHooks) => {
      const replayHooks = hooks ?? {};
      ran.push({ options, hooks: replayHooks });
      replayHooks.onReplayStats?.(stats(12));
      return run(replayHooks);
    },
  };
}

function storedKey(): FakeSecretStorage {
  const secrets = new FakeSecretStorage();
  secrets.values.set(replayApiKeySecret, key);
  return secrets;
}

function logChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Credit Lens', { log: true });
}

/** Everything the extension said: log lines, notifications and dialogs, webview messages. */
function everythingSaid(): string {
  const lines = fake.channels.flatMap((c: FakeLogOutputChannel) => c.lines);
  const posted = fake.panels.flatMap((p) => p.webview.posted);
  return JSON.stringify({ lines, messages: fake.messages, posted, progress: fake.progress.map((p) => p.reports) });
}

function openPanel(engine: ReturnType<typeof fakeEngine>, secrets = storedKey()): FakeWebviewPanel {
  const panel = new EpisodePanel({
    extensionUri: vscode.Uri.file('/ext'),
    log: logChannel(),
    config,
    secrets: secrets,
    estimateReplay: engine.estimateReplay,
    runCredit: engine.runCredit,
  });
  panel.show(vscode.Uri.file(root), episodeId);
  const webview = fake.panels.at(-1)!;
  webview.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  return webview;
}

function posted<P>(panel: FakeWebviewPanel, method: string): P[] {
  return (panel.webview.posted as IpcMessage<P>[]).filter((m) => m.method === method).map((m) => m.params);
}

async function recompute(panel: FakeWebviewPanel, params: Partial<RecomputeParams> = {}): Promise<RecomputeProgress[]> {
  const from = posted(panel, DidChangeRecomputeNotification.method).length;
  panel.webview.receive(RecomputeCommand.with({ ref: { folder: root, episodeId }, method: 'loo', ...params }));
  const states = (): RecomputeProgress[] =>
    posted<RecomputeProgress>(panel, DidChangeRecomputeNotification.method).slice(from);
  for (let i = 0; i < 200 && !states().some((p) => ['done', 'failed', 'cancelled'].includes(p.state)); i++)
    await settle();
  return states();
}

test('Set Replay API Key stores the key from a password box in secret storage; Clear removes it; neither logs it', async () => {
  const secrets = new FakeSecretStorage();
  const log = logChannel();
  const deps = { secrets: secrets as unknown as vscode.SecretStorage, log };
  fake.answerInputBox = () => `  ${key} `;
  await setReplayApiKeyCommand(deps)();
  assert.equal(fake.inputBoxes[0]?.password, true);
  assert.equal(fake.inputBoxes[0]?.validateInput?.('  '), 'Enter the key, or press Escape to keep the current one');
  assert.equal(secrets.values.get(replayApiKeySecret), key, 'trimmed and stored under the one key');
  fake.answerInputBox = () => undefined;
  await setReplayApiKeyCommand(deps)();
  assert.equal(secrets.values.get(replayApiKeySecret), key, 'Escape keeps the stored key');
  await clearReplayApiKeyCommand(deps)();
  assert.equal(secrets.values.has(replayApiKeySecret), false);
  assert.deepEqual(secrets.calls, [`store ${replayApiKeySecret}`, `delete ${replayApiKeySecret}`]);
  assert.doesNotMatch(everythingSaid(), new RegExp(key));
  assert.match(fake.messages[0]?.text ?? '', /stored in VS Code's secret storage/);
});

test('Episode view: the replay is offered first with its host; Recompute estimates, confirms in a modal dialog, runs with the key and reports calls', async () => {
  const engine = fakeEngine();
  const panel = openPanel(engine);
  const [data] = posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method);
  assert.equal(data?.evaluator.kind, 'replay');
  assert.equal(data?.evaluator.endpoint, '127.0.0.1:8000');
  assert.deepEqual(
    data?.evaluator.options?.map((o) => [o.kind, o.description]),
    [
      ['replay', 'replay on 127.0.0.1:8000'],
      ['checker', 'built-in final-answer'],
    ],
  );
  const states = await recompute(panel);
  assert.deepEqual(
    states.map((s) => s.state),
    ['estimating', 'confirming', 'running', 'done'],
  );
  assert.ok(states.every((s) => s.replay === '127.0.0.1:8000'));
  assert.equal(states[1]?.message, question);
  assert.deepEqual([states[2]?.unit, states[2]?.done, states[2]?.total], ['calls', 12, 1240]);
  assert.match(states[2]?.message ?? '', /^12 of ~1,240 calls · 8\.9 k tokens · \d+ s$/);
  assert.match(states[3]?.message ?? '', /^replayed on 127\.0\.0\.1:8000: 12 of ~1,240 calls .*; 40 evaluator calls/);
  const dialog = fake.messages.find((m) => m.modal);
  assert.deepEqual([dialog?.level, dialog?.text, dialog?.items], ['warning', question, ['Replay']]);
  assert.match(dialog?.modal?.detail ?? '', /sends an agent’s conversation/);
  // The estimate sees the replay without the key; the run gets the key, in memory only, and a signal.
  const estimated = engine.estimated[0]?.evaluator as KeyedReplayChoice;
  assert.equal(estimated.kind, 'replay');
  assert.equal(estimated.apiKey, undefined);
  assert.deepEqual(engine.estimated[0]?.episodes, [episodeId]);
  const ran = engine.ran[0]!;
  assert.equal((ran.options.evaluator as KeyedReplayChoice).apiKey, key);
  assert.equal((ran.options.evaluator as KeyedReplayChoice).options.url, url);
  assert.ok(ran.hooks.signal instanceof AbortSignal);
  assert.equal(ran.hooks.isCancelled?.(), false);
  // Nowhere else: no log line, notification, dialog or webview message carries it.
  assert.doesNotMatch(everythingSaid(), new RegExp(key));
});

test('Episode view: a declined confirmation sends nothing and says so', async () => {
  fake.answerMessage = () => undefined;
  const engine = fakeEngine();
  const states = await recompute(openPanel(engine));
  assert.equal(engine.ran.length, 0);
  assert.deepEqual(
    states.map((s) => s.state),
    ['estimating', 'confirming', 'cancelled'],
  );
  assert.equal(states.at(-1)?.message, 'the replay was not confirmed; nothing was sent');
});

test('Episode view: the checker chosen in the menu runs without a dialog or a key', async () => {
  const engine = fakeEngine();
  const states = await recompute(openPanel(engine), { evaluator: 'checker' });
  assert.equal(fake.messages.filter((m) => m.modal).length, 0);
  assert.deepEqual(engine.ran[0]?.options.evaluator, { kind: 'builtin', name: 'final-answer', options: {} });
  assert.equal(engine.ran[0]?.hooks.signal, undefined);
  assert.deepEqual(
    states.map((s) => [s.state, s.replay]),
    [
      ['running', null],
      ['done', null],
    ],
  );
});

test('Episode view: untrusted, the replay is not offered; asking for it fails clearly; Recompute uses the checker', async () => {
  fake.isTrusted = false;
  const engine = fakeEngine();
  const panel = openPanel(engine);
  const [data] = posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method);
  assert.deepEqual(
    data?.evaluator.options?.map((o) => o.kind),
    ['checker'],
  );
  assert.match(data?.evaluator.reason ?? '', /did not replay on http:\/\/127\.0\.0\.1:8000\/v1 .*not trusted/);
  const refused = await recompute(panel, { evaluator: 'replay' });
  assert.equal(refused.at(-1)?.state, 'failed');
  assert.match(refused.at(-1)?.message ?? '', /^The replay evaluator is not available: .*not trusted/);
  assert.equal(engine.ran.length, 0);
  await recompute(panel);
  assert.deepEqual(engine.ran[0]?.options.evaluator, { kind: 'builtin', name: 'final-answer', options: {} });
  assert.equal(fake.messages.filter((m) => m.modal).length, 0);
});

test('Episode view: Cancel aborts the replay’s signal; the pass ends cancelled', async () => {
  const engine = fakeEngine(
    (hooks) =>
      new Promise((resolve) => {
        hooks.signal?.addEventListener('abort', () => {
          resolve(result(hooks.isCancelled?.() ? 0 : 1));
        });
      }),
  );
  const panel = openPanel(engine);
  const finished = recompute(panel);
  for (let i = 0; i < 100 && engine.ran.length === 0; i++) await settle();
  panel.webview.receive(CancelRecomputeCommand.with({}));
  const states = await finished;
  assert.equal(states.at(-1)?.state, 'cancelled');
  assert.equal(engine.ran[0]?.hooks.signal?.aborted, true);
});

test('Episode view: a failed episode is one clear error; an estimate that fails still asks, saying so', async () => {
  const failing = {
    ...fakeEngine(() =>
      Promise.resolve(
        result(0, [{ where: 'a.jsonl:1', reason: 'the model server at http://127.0.0.1:8000/v1 is down' }]),
      ),
    ),
    estimateReplay: () => Promise.reject(new Error('episode e1 declares no system prompts')),
  };
  const states = await recompute(openPanel(failing));
  assert.equal(
    states.find((s) => s.state === 'confirming')?.message,
    'Replay on http://127.0.0.1:8000/v1? The number of calls could not be estimated (episode e1 declares no system prompts).',
  );
  assert.deepEqual(
    [states.at(-1)?.state, states.at(-1)?.message],
    ['failed', 'a.jsonl:1: the model server at http://127.0.0.1:8000/v1 is down'],
  );
});

test('Episode view: nothing left to replay (every value cached) runs without a dialog', async () => {
  const engine = {
    ...fakeEngine(),
    estimateReplay: () => Promise.resolve({ calls: 0, promptTokens: 0, completionTokens: 0 }),
  };
  const states = await recompute(openPanel(engine));
  assert.equal(fake.messages.filter((m) => m.modal).length, 0);
  assert.deepEqual(
    states.map((s) => s.state),
    ['estimating', 'running', 'done'],
  );
});

/** Answers the method pick with LOO, the evaluator pick with Replay, and no budget or steps. */
function pickLooWithReplay(): void {
  const picks = ['Replay', 'LOO'];
  fake.answerQuickPick = (items) => {
    const want = picks.pop();
    return (items as { label: string }[]).find((item) => want !== undefined && item.label.includes(want));
  };
  fake.answerInputBox = () => '';
}

test('Recompute Credit…: Replay is picked first, confirmed, and its progress shows calls, tokens and time', async () => {
  const engine = fakeEngine();
  pickLooWithReplay();
  const log = logChannel();
  await recomputeCreditCommand({
    log,
    secrets: storedKey(),
    formatCreditReport: () => [],
    runCredit: engine.runCredit,
    estimateReplay: engine.estimateReplay,
  })(vscode.Uri.file('/runs/r'));
  const evaluatorItems = fake.quickPicks[1]?.items as { label: string }[];
  assert.deepEqual(
    evaluatorItems.map((i) => i.label),
    ['Replay on 127.0.0.1:8000', 'Built-in: final-answer'],
  );
  assert.equal(fake.messages.find((m) => m.modal)?.text, question);
  assert.equal((engine.ran[0]?.options.evaluator as KeyedReplayChoice).apiKey, key);
  assert.match(fake.progress[0]?.reports.at(-1)?.message ?? '', /^12 of ~1,240 calls · 8\.9 k tokens/);
  assert.match(fake.messages.at(-1)?.text ?? '', /; replayed on 127\.0\.0\.1:8000: 12 of ~1,240 calls/);
  assert.ok(fake.channels.at(-1)!.lines.some((l) => /Replay on http:\/\/127\.0\.0\.1:8000\/v1: 12 calls/.test(l)));
  assert.doesNotMatch(everythingSaid(), new RegExp(key));
});

test('Recompute Credit…: untrusted, Replay is listed disabled and choosing it falls back with the trust warning', async () => {
  fake.isTrusted = false;
  const engine = fakeEngine();
  pickLooWithReplay();
  await recomputeCreditCommand({
    log: logChannel(),
    formatCreditReport: () => [],
    runCredit: engine.runCredit,
    estimateReplay: engine.estimateReplay,
  })(vscode.Uri.file('/runs/r'));
  assert.match((fake.quickPicks[1]?.items[0] as { label: string }).label, /Replay on 127\.0\.0\.1:8000 \(disabled\)/);
  assert.deepEqual(engine.ran[0]?.options.evaluator, { kind: 'builtin', name: 'final-answer', options: {} });
  assert.equal(engine.estimated.length, 0);
  const warning = fake.messages.find((m) => m.level === 'warning' && !m.modal);
  assert.deepEqual(warning?.items, ['Manage Workspace Trust']);
});

test('Dashboard: Recompute with the replay confirms the estimate and reports calls in the progress notification', async () => {
  const engine = fakeEngine();
  const owner = new DashboardPanel({
    extensionUri: vscode.Uri.file('/ext'),
    log: logChannel(),
    config,
    secrets: storedKey(),
    estimateReplay: engine.estimateReplay,
    runCredit: engine.runCredit,
    openEpisode: () => undefined,
  });
  owner.show(vscode.Uri.file(root));
  const panel = fake.panels.at(-1)!;
  panel.webview.receive(DashboardReadyCommand.with({ stateVersion: 1, folder: null }));
  const runs = posted<{ runs: { runId: number }[] }>(panel, 'dashboard/runs/didChange');
  panel.webview.receive(
    DashboardRecomputeCommand.with({ folder: root, runId: runs[0]!.runs[0]!.runId, method: 'loo' }),
  );
  for (let i = 0; i < 100 && engine.ran.length === 0; i++) await settle();
  await settle();
  assert.equal(fake.messages.find((m) => m.modal)?.text, question);
  assert.deepEqual(
    fake.progress[0]?.reports.map((r) => r.message),
    ['Estimating the replay on 127.0.0.1:8000…', question, fake.progress[0]?.reports[2]?.message],
  );
  assert.match(fake.progress[0]?.reports[2]?.message ?? '', /^12 of ~1,240 calls/);
  assert.equal((engine.ran[0]?.options.evaluator as KeyedReplayChoice).apiKey, key);
  assert.doesNotMatch(everythingSaid(), new RegExp(key));
  owner.dispose();
});

test('the Episode view follows the settings and the trust: a replay set, removed or allowed re-sends the episode', async () => {
  const context = fakeExtensionContext();
  activate(context);
  await vscode.commands.executeCommand('creditLens.openEpisodeView', {
    folder: vscode.Uri.file(root),
    episode: { episodeId },
  });
  const panel = fake.panels.at(-1)!;
  panel.webview.receive(EpisodeReadyCommand.with({ stateVersion: 1, ref: null }));
  const kinds = (): (string | undefined)[] =>
    posted<EpisodeViewData>(panel, DidChangeEpisodeNotification.method).map((d) => d.evaluator.kind);
  assert.deepEqual(kinds(), ['replay']);
  fake.settings.delete('creditLens.evaluator.replay');
  fake.changeConfiguration('creditLens.evaluator.replay');
  assert.deepEqual(kinds(), ['replay', 'checker']);
  fake.changeConfiguration('editor.fontSize');
  assert.equal(kinds().length, 2, 'another extension’s setting changes nothing');
  fake.settings.set('creditLens.evaluator.replay', { globalValue: { url } });
  fake.isTrusted = false;
  fake.changeConfiguration('creditLens');
  assert.deepEqual(kinds().at(-1), 'checker', 'untrusted: no replay');
  fake.isTrusted = true;
  fake.trustGranted.fire();
  assert.deepEqual(kinds().at(-1), 'replay', 'trust granted: the replay is offered');
  for (const disposable of context.subscriptions) disposable.dispose();
});
