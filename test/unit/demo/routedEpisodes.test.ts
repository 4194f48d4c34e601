import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routedEpisodes, routedManifest } from '../../../src/demo/routedEpisodes';
import { decodeEpisode } from '../../../src/ingest/canonical/decodeEpisode';
import { decodeManifest } from '../../../src/ingest/canonical/decodeManifest';

const episodes = [...routedEpisodes()];

describe('routedEpisodes', () => {
  it('routedEpisodes() yields 20 steps × 8 groups × 4 samples = 640 episodes with unique ids, deterministically', () => {
    assert.equal(episodes.length, 640);
    assert.equal(new Set(episodes.map((e) => e.id)).size, 640);
    assert.equal(Math.max(...episodes.map((e) => e.step ?? 0)), 20);
    assert.deepEqual([...routedEpisodes()], episodes);
    assert.notDeepEqual(
      [...routedEpisodes({ seed: 99 })].map((e) => e.routing),
      episodes.map((e) => e.routing),
    );
  });

  it('routedEpisodes() lines and routedManifest() decode with no error', () => {
    for (const episode of episodes) {
      const decoded = decodeEpisode(JSON.parse(JSON.stringify(episode)));
      assert.ok(decoded.ok, decoded.ok ? '' : `${episode.id}: ${decoded.error}`);
    }
    const manifest = decodeManifest(JSON.parse(JSON.stringify(routedManifest())), 'x');
    assert.ok(manifest.ok, manifest.ok ? '' : manifest.error);
    assert.equal(manifest.value.mechanism, 'routed');
    assert.deepEqual(manifest.value.evaluator, {
      kind: 'builtin',
      name: 'final-answer',
      options: { aggregation: 'selected' },
    });
  });

  it('routedEpisodes() routing probabilities sum to 1 and the selected expert is one of them', () => {
    for (const e of episodes) {
      const probs = e.routing?.probs ?? {};
      assert.deepEqual(Object.keys(probs), ['fast', 'careful']);
      assert.ok(Math.abs((probs['fast'] ?? 0) + (probs['careful'] ?? 0) - 1) < 1e-9, e.id);
      assert.ok(e.routing !== undefined && e.routing.selected in probs);
      assert.equal(e.final?.agent, e.routing.selected);
      assert.equal(e.counterfactuals, undefined, 'unselected responses are never scored');
    }
  });

  it('routedEpisodes() selects fast about as often as its mean probability (≈ 0.7)', () => {
    const meanFast = episodes.reduce((sum, e) => sum + (e.routing?.probs['fast'] ?? 0), 0) / episodes.length;
    const share = episodes.filter((e) => e.routing?.selected === 'fast').length / episodes.length;
    assert.ok(Math.abs(share - meanFast) <= 0.05, `share ${share} vs mean probability ${meanFast}`);
    assert.ok(meanFast > 0.6 && meanFast < 0.8, `mean probability ${meanFast}`);
  });

  it('routedEpisodes() careful is more accurate than fast, and the reward scores the selected answer', () => {
    const accuracy = (expert: string): number => {
      const chosen = episodes.filter((e) => e.routing?.selected === expert);
      return chosen.reduce((sum, e) => sum + (e.reward ?? 0), 0) / chosen.length;
    };
    assert.ok(
      accuracy('careful') > accuracy('fast') + 0.2,
      `careful ${accuracy('careful')} vs fast ${accuracy('fast')}`,
    );
    for (const e of episodes) {
      assert.equal(e.reward, e.final?.answer === e.groundTruth ? 1 : 0);
      const selectedMessage = e.messages.find((m) => m.agent === e.routing?.selected);
      assert.ok(selectedMessage?.content.endsWith(`#### ${e.final?.answer}`), e.id);
      assert.deepEqual(Object.keys(e.advantages ?? {}), [e.routing?.selected]);
    }
  });
});
