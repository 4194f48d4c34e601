import '../fakes/registerVscodeFake';
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { defaultAuditThresholds } from '../../../src/credit/audit/auditThresholds';
import {
  defaultSeverity,
  indexDbPath,
  loadConfig,
  readConfig,
  type CreditLensConfig,
} from '../../../src/extension/config';
import { evaluatorChoice, gatedEvaluatorChoice, settingSource } from '../../../src/extension/trust';
import { fake } from '../fakes/vscode';

const defaults = (): CreditLensConfig => {
  const read = readConfig(() => undefined);
  assert.ok(read.ok);
  return read.value;
};
const withSettings = (settings: Record<string, unknown>) => readConfig((key) => settings[key]);

beforeEach(() => fake.reset());

test('unset settings give the documented defaults', () => {
  assert.deepEqual(defaults(), {
    indexLocation: { kind: 'runFolder' },
    defaultMethod: 'loo',
    evaluator: {
      builtin: 'final-answer',
      options: {},
      command: '',
      concurrency: 4,
      timeoutMs: 60_000,
      replay: { state: 'off' },
    },
    auditThresholds: { ...defaultAuditThresholds },
    auditSeverity: defaultSeverity,
    liveTailEnabled: true,
  });
});

test('valid settings are read', () => {
  const read = withSettings({
    'index.location': '/data/indexes',
    'credit.defaultMethod': 'shapley-mc',
    'evaluator.options': { aggregation: 'vote' },
    'evaluator.command': ' python eval.py ',
    'evaluator.concurrency': 8,
    'evaluator.timeoutMs': 1000,
    'audit.thresholds': { alpha: 0.01 },
    'audit.severity': { idle: 'error' },
    'liveTail.enabled': false,
  });
  assert.ok(read.ok, read.ok ? '' : read.error);
  assert.deepEqual(read.value.indexLocation, { kind: 'custom', folder: '/data/indexes' });
  assert.equal(read.value.defaultMethod, 'shapley-mc');
  assert.equal(read.value.evaluator.command, 'python eval.py');
  assert.equal(read.value.auditThresholds.alpha, 0.01);
  assert.equal(read.value.auditSeverity.idle, 'error');
  assert.equal(read.value.auditSeverity.silent, 'information');
  assert.equal(read.value.liveTailEnabled, false);
  assert.deepEqual(
    withSettings({ 'index.location': 'workspaceStorage' }).ok && withSettings({ 'index.location': 'workspaceStorage' }),
    { ok: true, value: { ...defaults(), indexLocation: { kind: 'workspaceStorage' } } },
  );
});

const invalid: [string, unknown, RegExp][] = [
  [
    'index.location',
    'relative/path',
    /creditLens\.index\.location must be "runFolder", "workspaceStorage" or an absolute folder path/,
  ],
  ['index.location', 3, /creditLens\.index\.location/],
  ['credit.defaultMethod', 'banzhaf', /creditLens\.credit\.defaultMethod must be one of shared, loo, shapley/],
  ['evaluator.builtin', '', /creditLens\.evaluator\.builtin must not be empty/],
  ['evaluator.builtin', 7, /creditLens\.evaluator\.builtin must be a string/],
  ['evaluator.options', [1], /creditLens\.evaluator\.options must be an object/],
  ['evaluator.command', false, /creditLens\.evaluator\.command must be a string/],
  ['evaluator.concurrency', 0, /creditLens\.evaluator\.concurrency must be an integer in \[1, 64\]/],
  ['evaluator.concurrency', 2.5, /creditLens\.evaluator\.concurrency/],
  ['evaluator.timeoutMs', 10, /creditLens\.evaluator\.timeoutMs must be an integer in \[100, 3600000\]/],
  ['audit.thresholds', 'x', /creditLens\.audit\.thresholds must be an object/],
  ['audit.thresholds', { alpha: 0.9 }, /creditLens\.audit\.thresholds: audit thresholds: alpha must be in/],
  ['audit.thresholds', { nope: 1 }, /unknown setting 'nope'/],
  ['audit.severity', 'error', /creditLens\.audit\.severity must be an object/],
  ['audit.severity', { lazy: 'error' }, /unknown flag kind 'lazy'/],
  [
    'audit.severity',
    { idle: 'fatal' },
    /creditLens\.audit\.severity\.idle must be one of error, warning, information, hint/,
  ],
  ['liveTail.enabled', 'yes', /creditLens\.liveTail\.enabled must be true or false/],
];

for (const [key, value, message] of invalid) {
  test(`invalid ${key} = ${JSON.stringify(value)} is an error naming the setting`, () => {
    const read = withSettings({ [key]: value });
    assert.equal(read.ok, false);
    assert.match(read.ok ? '' : read.error, message);
  });
}

test('every invalid setting is reported at once', () => {
  const read = withSettings({ 'credit.defaultMethod': 'x', 'liveTail.enabled': 1 });
  assert.equal(read.ok, false);
  assert.match(read.ok ? '' : read.error, /defaultMethod.*; creditLens\.liveTail\.enabled/);
});

test('loadConfig reads workspace.getConfiguration("creditLens")', () => {
  fake.settings.set('creditLens.credit.defaultMethod', { globalValue: 'owen' });
  const read = loadConfig();
  assert.ok(read.ok);
  assert.equal(read.value.defaultMethod, 'owen');
});

test('indexDbPath: run folder → default lookup; workspace storage and custom folders hash the run folder', () => {
  assert.equal(indexDbPath({ kind: 'runFolder' }, '/runs/a', '/storage'), undefined);
  assert.equal(indexDbPath({ kind: 'workspaceStorage' }, '/runs/a', undefined), undefined);
  assert.match(
    indexDbPath({ kind: 'workspaceStorage' }, '/runs/a', '/storage') ?? '',
    /^\/storage\/indexes\/[0-9a-f]{16}\/index\.sqlite$/,
  );
  const custom = indexDbPath({ kind: 'custom', folder: '/idx' }, '/runs/a', undefined);
  assert.match(custom ?? '', /^\/idx\/[0-9a-f]{16}\/index\.sqlite$/);
  assert.notEqual(custom, indexDbPath({ kind: 'custom', folder: '/idx' }, '/runs/b', undefined));
});

const withCommand = (command: string): CreditLensConfig => ({
  ...defaults(),
  evaluator: { ...defaults().evaluator, command, options: { aggregation: 'vote' } },
});
const builtin = { kind: 'builtin', name: 'final-answer', options: { aggregation: 'vote' } };
const command = { kind: 'command', command: 'python eval.py', timeoutMs: 60_000, concurrency: 4 };

for (const trusted of [true, false]) {
  for (const source of ['workspace', 'user', 'default'] as const) {
    test(`no command configured → built-in (trusted ${trusted}, ${source})`, () => {
      assert.deepEqual(evaluatorChoice(withCommand(''), trusted, source), { choice: builtin });
    });
    const refused = !trusted && source === 'workspace';
    test(`command from ${source} settings, trusted ${trusted} → ${refused ? 'built-in with a warning' : 'the command'}`, () => {
      const gated = evaluatorChoice(withCommand('python eval.py'), trusted, source);
      if (refused) {
        assert.deepEqual(gated.choice, builtin);
        assert.match(
          gated.warning ?? '',
          /did not run the evaluator command "python eval\.py".*not trusted.*trust the workspace/,
        );
      } else {
        assert.deepEqual(gated, { choice: command });
      }
    });
  }
}

test('settingSource follows VS Code precedence', () => {
  assert.equal(settingSource(undefined), 'default');
  assert.equal(settingSource({}), 'default');
  assert.equal(settingSource({ globalValue: 'a' }), 'user');
  assert.equal(settingSource({ globalValue: 'a', workspaceValue: 'b' }), 'workspace');
  assert.equal(settingSource({ workspaceFolderValue: 'c' }), 'workspace');
});

const withReplay = (replay: unknown, command = ''): CreditLensConfig => {
  const read = withSettings({ 'evaluator.replay': replay, 'evaluator.command': command });
  assert.ok(read.ok, 'a bad replay setting never fails the whole configuration');
  return read.value;
};

test('creditLens.evaluator.replay: unset, null or {} is off; a valid object is on with the endpoint for messages', () => {
  for (const off of [undefined, null, {}]) assert.deepEqual(withReplay(off).evaluator.replay, { state: 'off' });
  const on = withReplay({ url: 'http://127.0.0.1:8000/v1/?api-version=2', model: 'policy', samples: 2 }).evaluator
    .replay;
  assert.equal(on.state, 'on');
  if (on.state !== 'on') return;
  assert.equal(on.display, 'http://127.0.0.1:8000/v1', 'the query (which may carry a key) is not shown');
  assert.equal(on.host, '127.0.0.1:8000');
  assert.equal(on.options.model, 'policy');
  assert.equal(on.options.samples, 2);
});

const badReplay: [unknown, RegExp][] = [
  ['http://127.0.0.1:8000/v1', /creditLens\.evaluator\.replay must be an object/],
  [{ model: 'x' }, /creditLens\.evaluator\.replay: replay: url=http:\/\/HOST:PORT\/v1 is required/],
  [{ url: 'http://h:1/v1', api_key: 'sk-secret' }, /do not put the API key in the options/],
  [{ url: 'http://h:1/v1', mode: 'drop' }, /mode must be remove or default/],
  [{ url: 'http://h:1/v1', nope: 1 }, /unknown option "nope"/],
  [{ url: 'http://user:pw@h:1/v1' }, /must not contain a user name or password/],
];

for (const [value, message] of badReplay) {
  test(`invalid replay setting ${JSON.stringify(value)} turns replay off with one warning naming the setting`, () => {
    const config = withReplay(value);
    const replay = config.evaluator.replay;
    assert.equal(replay.state, 'invalid');
    assert.match(replay.state === 'invalid' ? replay.error : '', message);
    const gated = evaluatorChoice(config, true, 'user');
    assert.deepEqual(gated.choice, { kind: 'builtin', name: 'final-answer', options: {} });
    assert.equal(gated.fix, 'settings');
    assert.match(
      gated.warning ?? '',
      /^Credit Lens replay is off: creditLens\.evaluator\.replay.*built-in final-answer/,
    );
    assert.doesNotMatch(gated.warning ?? '', /sk-secret|pw@/, 'the warning never echoes a key or password');
  });
}

for (const source of ['workspace', 'user'] as const) {
  test(`replay from ${source} settings: used in a trusted workspace, with the checker as its fallback`, () => {
    const gated = evaluatorChoice(withReplay({ url: 'http://127.0.0.1:8000/v1' }), true, source);
    assert.equal(gated.choice.kind, 'replay');
    assert.equal(gated.choice.kind === 'replay' ? gated.choice.options.url : '', 'http://127.0.0.1:8000/v1');
    assert.deepEqual(gated.fallback, { kind: 'builtin', name: 'final-answer', options: {} });
    assert.equal(gated.warning, undefined);
  });

  test(`replay from ${source} settings: refused in an untrusted workspace, with a warning saying how to enable it`, () => {
    const gated = evaluatorChoice(withReplay({ url: 'http://127.0.0.1:8000/v1' }), false, source);
    assert.deepEqual(gated.choice, { kind: 'builtin', name: 'final-answer', options: {} });
    assert.equal(gated.fallback, undefined);
    assert.equal(gated.fix, 'trust');
    assert.match(
      gated.warning ?? '',
      /did not replay on http:\/\/127\.0\.0\.1:8000\/v1 because the workspace is not trusted.*built-in final-answer evaluator instead.*trust the workspace/,
    );
  });
}

test('replay beside a command: the command is the fallback when trusted; untrusted, both refusals are said', () => {
  const config = withReplay({ url: 'http://h:1/v1' }, 'python eval.py');
  assert.deepEqual(evaluatorChoice(config, true, 'workspace').fallback, command);
  const untrusted = evaluatorChoice(config, false, 'workspace');
  assert.deepEqual(untrusted.choice, { kind: 'builtin', name: 'final-answer', options: {} });
  assert.match(untrusted.warning ?? '', /did not run the evaluator command.*did not replay on http:\/\/h:1\/v1/);
  assert.equal(untrusted.fix, 'trust');
});

test('passes without a confirmation (audit, export) never replay: they get the fallback', () => {
  fake.settings.set('creditLens.evaluator.replay', { globalValue: { url: 'http://h:1/v1' } });
  const read = loadConfig();
  assert.ok(read.ok);
  const choice = gatedEvaluatorChoice(read.value, { warn: () => undefined } as never);
  assert.deepEqual(choice, { kind: 'builtin', name: 'final-answer', options: {} });
  assert.deepEqual(fake.messages, [], 'a trusted, valid replay is no warning');
});
