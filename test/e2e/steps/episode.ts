// The e2e step of issue 16 part 2: the Episode view shows the episode. The lead calls it from
// test/e2e/extension.e2e.ts once an episode of the demo's pipeline run is open, e.g.
//   await openPipelineEpisode('s18-g0-r0');
//   await episodeShowsTheTask({ webview: activeWebview(), episodeId: 's18-g0-r0', screenshot });
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';

export interface EpisodeTaskStep {
  /** The Episode view's frame (extension.e2e.ts's `activeWebview()`). */
  readonly webview: FrameLocator;
  /** The external id of the open episode. */
  readonly episodeId: string;
  /** Saves `<name>.png` of the page (extension.e2e.ts's `screenshot`). */
  readonly screenshot: (name: string) => Promise<void>;
}

/**
 * The demo episode's prompt and ground truth on top, its metadata (temperature, seed, template) in a
 * collapsible section, and its raw record one click away, asserted by text and count; screenshot
 * `i16-episode-task`.
 */
export async function episodeShowsTheTask({ webview, episodeId, screenshot }: EpisodeTaskStep): Promise<void> {
  const prompt = webview.locator('.task-prompt .prompt-text');
  await prompt.waitFor({ timeout: 30_000 });
  assert.ok(((await prompt.textContent()) ?? '').trim().length > 20, 'the demo prompt is a word problem');
  assert.match((await webview.locator('.task-truth').textContent()) ?? '', /^-?\d+(\.\d+)?$/);
  const metadata = webview.locator('details.task-metadata');
  assert.equal(await metadata.locator('summary').textContent(), 'Metadata (3 keys)');
  await metadata.locator('summary').click();
  assert.deepEqual(await metadata.locator(':scope > .value-tree > .value-key').allTextContents(), [
    'temperature',
    'seed',
    'template',
  ]);
  await webview.locator('details.task-raw summary').click();
  const raw = webview.locator('.raw-text');
  await raw.waitFor({ timeout: 30_000 });
  assert.ok(((await raw.textContent()) ?? '').includes(`"id": "${episodeId}"`), 'the raw record is this episode');
  assert.match(
    (await webview.locator('details.task-raw .task-note').textContent()) ?? '',
    /^[\d,]+ bytes, pretty-printed$/,
  );
  await screenshot('i16-episode-task');
  // Leave the sections closed for the steps after this one.
  await webview.locator('details.task-raw summary').click();
  await metadata.locator('summary').click();
}
