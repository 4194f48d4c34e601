import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseReplayOptions, withManifestSettings } from '../../../../src/engine/evaluators/replay/replayOptions';

test('replay options from --evaluator replay:url=…,model=…: numbers parsed, defaults filled', () => {
  const parsed = parseReplayOptions({
    url: 'http://127.0.0.1:8000/v1/',
    model: 'qwen',
    models: 'solver=qwen-7b;verifier=qwen-1.5b',
    samples: '4',
    temperature: '0.7',
    top_p: '0.9',
    max_tokens: '256',
    seed: '7',
  });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.value, {
    url: 'http://127.0.0.1:8000/v1',
    model: 'qwen',
    models: { solver: 'qwen-7b', verifier: 'qwen-1.5b' },
    mode: 'remove',
    samples: 4,
    sampling: { temperature: 0.7, topP: 0.9, maxTokens: 256, seed: 7 },
    stream: false,
    concurrency: 8,
    timeoutMs: 120_000,
    apiKeyEnv: 'CREDIT_LENS_REPLAY_API_KEY',
    given: ['url', 'model', 'models', 'samples', 'temperature', 'top_p', 'max_tokens', 'seed'],
  });
});

test('replay options refuse a missing url, a key in the options, unknown keys and bad numbers, naming them', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ model: 'x' }, /url=http:\/\/HOST:PORT\/v1 is required/],
    [{ url: 'http://h/v1', api_key: 'sk-secret' }, /do not put the API key in the options/],
    [{ url: 'http://h/v1', temprature: '1' }, /unknown option "temprature"/],
    [{ url: 'http://h/v1', samples: '0' }, /samples must be a whole number/],
    [{ url: 'http://h/v1', seed: 'abc' }, /seed must be a number, got "abc"/],
    [{ url: 'http://h/v1', mode: 'erase' }, /mode must be remove or default/],
    [{ url: 'http://h/v1', models: 'solver' }, /models must look like agent=model/],
  ];
  for (const [settings, message] of cases) {
    const parsed = parseReplayOptions(settings);
    assert.equal(parsed.ok, false, JSON.stringify(settings));
    if (!parsed.ok) {
      assert.match(parsed.error, message);
      assert.doesNotMatch(parsed.error, /sk-secret/);
    }
  }
});

test('run.json replay settings fill only what the user did not set, and never the endpoint or the client', () => {
  const user = parseReplayOptions({ url: 'http://127.0.0.1:8000/v1', mode: 'remove', models: 'B=mine' });
  assert.ok(user.ok);
  const { options, warnings } = withManifestSettings(user.value, {
    url: 'http://198.51.100.7/v1',
    concurrency: 64,
    mode: 'default',
    samples: 4,
    models: { A: 'theirs-a', B: 'theirs-b' },
    seed: 9,
  });
  assert.equal(options.url, 'http://127.0.0.1:8000/v1');
  assert.equal(options.concurrency, 8);
  assert.equal(options.mode, 'remove'); // the user set it
  assert.equal(options.samples, 4); // the user did not
  assert.deepEqual(options.models, { A: 'theirs-a', B: 'mine' });
  assert.deepEqual(options.sampling, { seed: 9 });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /name "url", "concurrency", which a trace folder may not set/);
  const broken = withManifestSettings(user.value, { samples: 'many' });
  assert.equal(broken.options, user.value);
  assert.match(broken.warnings[0] ?? '', /run\.json's replay settings are ignored: replay: samples must be a number/);
});
