// The top of the Episode webview (prompt, ground truth, routing, metadata, raw record) and tool
// calls shown structured, in headless Chromium under the production CSP, in the light, dark and
// high-contrast themes, with markup payloads in every new text field. Run `node esbuild.mjs` first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeEpisodeNotification,
  GetCreditRequest,
  GetMessagesRequest,
  GetPromptRequest,
  GetRawRecordRequest,
  type MessageView,
} from '../../src/protocol/episodePanel';
import type { IpcMessage } from '../../src/protocol/ipc';
import { episodeData, messageAt, scriptedHost } from './episode/fixture';
import { openEpisode } from './episode/session';
import type { WebviewHarness } from './harness/harness';
import { noScriptRan } from './harness/noScriptRan';
import { describeInBrowser } from './harness/suite';

const img = '<img src=x onerror="window.__xss=1">';
const script = '</script><script>window.__xss=1</script>';
const prompt = `Solve the task. ${img} ${script}`;
const longValue = `${'long metadata value '.repeat(40)}${img}`;

const toolCall: MessageView = {
  ...messageAt(0),
  channel: 'tool_call',
  content: `Looking it up. ${script}\nlookup({"query":"${img}"})`,
  toolCalls: [{ name: 'lookup', args: { query: img, limit: 3 }, line: `lookup({"query":"${img}"})` }],
};
const toolResult: MessageView = {
  ...messageAt(1),
  channel: 'tool_result',
  content: `{"answer":"${script}"}`,
  toolResult: { answer: script, rows: [1, 2] },
};

const data = episodeData(30, {
  groundTruth: JSON.stringify([{ name: img, kwargs: { id: 7 } }]),
  metadata: { [img]: script, nested: { level: { deep: 'yes' } }, long: longValue },
  routing: {
    selected: script,
    experts: [
      { name: script, probability: 0.7, behaviourProbability: 0.5 },
      { name: img, probability: 0.3, behaviourProbability: 0.5 },
    ],
  },
});

/** The fixture's host, plus the prompt, the raw record and the two tool messages. */
function host(answers: { prompt?: () => unknown } = {}) {
  const base = scriptedHost({ count: 30 });
  return (message: IpcMessage, harness: WebviewHarness): unknown => {
    if (GetPromptRequest.is(message))
      return answers.prompt ? answers.prompt() : { text: prompt, chars: prompt.length, truncated: false };
    if (GetRawRecordRequest.is(message))
      return { text: `{\n  "prompt": "${script}${img}"\n}`, bytes: 4096, pretty: true, note: null };
    const value = base(message, harness);
    if (GetMessagesRequest.is(message)) {
      const window = value as { messages: MessageView[] };
      window.messages = window.messages.map((m) => (m.seq === 0 ? toolCall : m.seq === 1 ? toolResult : m));
    }
    return value;
  };
}

describeInBrowser('Episode webview: the task on top', (browser) => {
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    test(`prompt, ground truth, routing, metadata, raw record and tool calls as text (${theme})`, async () => {
      const s = await openEpisode(browser, { host: host(), data, theme });
      const page = s.h.page;
      await page.locator('.prompt-text', { hasText: 'Solve the task.' }).waitFor();
      assert.equal(await page.locator('.prompt-text').textContent(), prompt);
      // Ground truth logged as JSON (tau-bench's expected actions) reads as keys and values.
      const truth = page.locator('.task-truth');
      assert.deepEqual(await truth.locator('.value-key').allTextContents(), ['0', 'name', 'kwargs', 'id']);
      assert.equal(await truth.locator('.value-string').first().textContent(), img);
      // Routing: the selected expert named, every expert with its probability.
      assert.equal(await page.locator('.routing-table tbody tr').count(), 2);
      assert.equal(await page.locator('.routing-table tr.is-selected .agent-name').textContent(), script);
      assert.deepEqual(await page.locator('.routing-table tbody td.num').allTextContents(), [
        '0.700',
        '0.500',
        '0.300',
        '0.500',
      ]);

      // Metadata: collapsed, then keys and values, nested levels, a long value clipped until "Show all".
      const metadata = page.locator('details.task-metadata');
      assert.equal(await metadata.locator('summary').textContent(), 'Metadata (3 keys)');
      assert.equal(await metadata.locator('.value-tree').count(), 0, 'built only when opened');
      await metadata.locator('summary').click();
      // The tree is built on the details' toggle event, a task after the click: wait for it.
      await metadata.locator(':scope > .value-tree').waitFor();
      assert.deepEqual(await metadata.locator(':scope > .value-tree > .value-key').allTextContents(), [
        img,
        'nested',
        'long',
      ]);
      assert.equal(await metadata.locator('.value-key', { hasText: 'deep' }).count(), 1);
      const long = metadata.locator('.value-string', { hasText: 'long metadata value' });
      assert.ok(((await long.textContent()) ?? '').length < longValue.length);
      await long.getByRole('button', { name: /^Show all \(\d[\d,]* characters\)$/ }).click();
      assert.equal(await long.textContent(), longValue);

      // The raw record: asked for only when opened, shown as text in place.
      assert.equal(s.h.posted.filter((m) => GetRawRecordRequest.is(m)).length, 0);
      await page.locator('details.task-raw summary').click();
      await page.locator('.raw-text').waitFor();
      assert.equal(await page.locator('.raw-text').textContent(), `{\n  "prompt": "${script}${img}"\n}`);
      assert.equal(await page.locator('details.task-raw .task-note').textContent(), '4,096 bytes, pretty-printed');

      // A tool call expanded: the prose, then the call's name and its arguments as keys and values.
      await page.locator('.msg[data-seq="0"]').click();
      await page.keyboard.press('Enter');
      const call = page.locator('.msg[data-seq="0"] .tool-call');
      await call.waitFor();
      assert.equal(await call.locator('.tool-name').textContent(), 'lookup');
      assert.deepEqual(await call.locator('.value-key').allTextContents(), ['query', 'limit']);
      assert.equal(await call.locator('.value-string').textContent(), img);
      assert.match(
        (await page.locator('.msg[data-seq="0"] .msg-body').textContent()) ?? '',
        /^Looking it up\. <\/script>/,
      );
      await page.locator('.msg[data-seq="1"]').click();
      await page.keyboard.press('Enter');
      const result = page.locator('.msg[data-seq="1"] .tool-result');
      await result.waitFor();
      assert.deepEqual(await result.locator('.value-key').allTextContents(), ['answer', 'rows', '0', '1']);

      await noScriptRan(s.h);
      await s.h.screenshot(`episode-task-${theme}`);
      await s.close();
    });
  }

  test('the prompt is asked for once per opening, not again when the same episode refreshes', async () => {
    const s = await openEpisode(browser, { host: host(), data });
    await s.h.page.locator('.prompt-text').waitFor();
    await s.h.notify(DidChangeEpisodeNotification, { ...data, reward: 0.5 });
    await s.h.page.locator('.fact', { hasText: 'Reward' }).filter({ hasText: '0.500' }).waitFor();
    assert.equal(await s.h.page.locator('.prompt-text').textContent(), prompt);
    assert.equal(s.h.posted.filter((m) => GetPromptRequest.is(m)).length, 1);
    await s.close();
  });

  test('says why the prompt is missing: none logged, the read failed, or the trace no longer holds the episode', async () => {
    const none = await openEpisode(browser, {
      host: host({ prompt: () => ({ text: null, chars: 0, truncated: false }) }),
      data,
    });
    await none.h.page.getByText('The trace logs no prompt for this episode.').waitFor();
    await none.close();
    const failed = await openEpisode(browser, {
      host: host({
        prompt: () => {
          throw new Error(`run/a.jsonl:2: the line now holds episode "x", not "y"; re-index the run ${img}`);
        },
      }),
      data,
    });
    await failed.h.page
      .locator('.task-error', {
        hasText: 'The prompt could not be read back: run/a.jsonl:2: the line now holds episode',
      })
      .waitFor();
    await noScriptRan(failed.h);
    await failed.close();
  });

  test('an episode opened from the dashboard shows the dashboard’s method, once', async () => {
    const s = await openEpisode(browser, { host: host(), data: { ...data, openedMethod: 'loo' } });
    await s.h.waitForPosted((m) => GetCreditRequest.is(m) && m.params.method === 'loo');
    const method = (): Promise<string> =>
      s.h.page.locator('vscode-dropdown.method-switch').evaluate((el) => (el as unknown as { value: string }).value);
    assert.equal(await method(), 'loo');
    // A later post without it (the index changed) keeps the method shown.
    await s.h.notify(DidChangeEpisodeNotification, { ...data, openedMethod: null });
    assert.equal(await method(), 'loo');
    await s.close();
  });
});
