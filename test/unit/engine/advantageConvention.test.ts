import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseAdvantageConvention, describeAdvantageChoice } from '../../../src/engine/credit/advantageConvention';

const producer = (formats: string[], framework: string | null = null, manifest?: object) => ({
  formats,
  framework,
  configJson: manifest ? JSON.stringify(manifest) : null,
});
const choose = (...args: Parameters<typeof chooseAdvantageConvention>) => {
  const c = chooseAdvantageConvention(...args);
  return [c.convention.name, c.source, c.description];
};

describe('chooseAdvantageConvention', () => {
  it('chooseAdvantageConvention prefers the flag, then run.json, then the trace format, then the framework, then verl', () => {
    const all = producer(['trl'], 'openrlhf', { advantage: 'c3' });
    assert.deepEqual(choose('r', all, 'dr-grpo'), ['dr-grpo', 'flag', 'from --advantage']);
    assert.deepEqual(choose('r', all), ['c3', 'run.json', 'from run.json']);
    assert.deepEqual(choose('r', producer(['trl'], 'openrlhf')), ['trl', 'producer', 'from the producer trl']);
    assert.deepEqual(choose('r', producer(['credit_lens_jsonl'], 'OpenRLHF')), [
      'openrlhf',
      'producer',
      'from the framework OpenRLHF',
    ]);
    assert.deepEqual(choose('r', producer(['credit_lens_jsonl'], 'marti')), ['verl', 'default', 'default']);
  });

  it('chooseAdvantageConvention maps c3, c3-buckets to c3 and ccpo to dr-grpo; disagreeing formats do not decide', () => {
    assert.equal(choose('r', producer(['c3-buckets', 'c3']))[0], 'c3');
    assert.equal(choose('r', producer(['ccpo']))[0], 'dr-grpo');
    assert.deepEqual(choose('r', producer(['verl', 'trl'], 'trl')).slice(0, 2), ['trl', 'producer']);
    assert.deepEqual(choose('r', producer(['verl', 'trl'])).slice(0, 2), ['verl', 'default']);
  });

  it('chooseAdvantageConvention rejects unknown names in the flag and in run.json, naming where', () => {
    assert.throws(
      () => chooseAdvantageConvention('r', producer([]), 'ppo'),
      /unknown advantage convention "ppo" in --advantage \(known: verl, trl, openrlhf, drmas, c3, dr-grpo/,
    );
    assert.throws(
      () => chooseAdvantageConvention('team', producer([], null, { advantage: 'x' })),
      /"advantage" in run.json of run "team"/,
    );
  });

  it('describeAdvantageChoice gives the one-line form of the text report', () => {
    assert.equal(
      describeAdvantageChoice(chooseAdvantageConvention('r', producer(['verl']))),
      'verl (sample std, eps 1e-6; from the producer verl)',
    );
  });
});
