// Rendering of the Episode view's parts in jsdom: trace text stays text, colours go to CSS
// custom properties, and the numbers reach assistive technology. The modules are imported after
// jsdom provides `document` (dom.ts's h() uses the global).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { JSDOM } from 'jsdom';
import type { EpisodeCreditView, EpisodeViewData, MessageView } from '../../../src/protocol/episodePanel';
import type * as Agents from '../../../webview/src/episode/agentsView';
import type * as Bars from '../../../webview/src/episode/bars';
import type * as Details from '../../../webview/src/episode/detailsView';
import type * as Header from '../../../webview/src/episode/header';
import type * as Legend from '../../../webview/src/episode/legend';
import type * as Row from '../../../webview/src/episode/row';
import type * as Tint from '../../../webview/src/episode/tint';

const payloads = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<a href="javascript:window.__xss=1">x</a>',
];
const all = payloads.join(' ');

type Modules = [typeof Row, typeof Header, typeof Details, typeof Agents, typeof Legend, typeof Bars, typeof Tint];
let m: Modules;
let document: Document;

before(async () => {
  const dom = new JSDOM('<!DOCTYPE html><main id="app"></main>');
  document = dom.window.document;
  Object.assign(globalThis, { document, window: dom.window });
  m = await Promise.all([
    import('../../../webview/src/episode/row'),
    import('../../../webview/src/episode/header'),
    import('../../../webview/src/episode/detailsView'),
    import('../../../webview/src/episode/agentsView'),
    import('../../../webview/src/episode/legend'),
    import('../../../webview/src/episode/bars'),
    import('../../../webview/src/episode/tint'),
  ]);
});

function message(overrides: Partial<MessageView> = {}): MessageView {
  const content = overrides.content ?? all;
  return {
    seq: 7,
    agent: payloads[1]!,
    turn: 2,
    role: 'assistant',
    channel: null,
    tokenCount: 31,
    content,
    contentChars: content.length,
    truncated: false,
    tokens: null,
    ...overrides,
  };
}

const credit: EpisodeCreditView = {
  method: 'loo',
  status: 'computed',
  reason: null,
  approximate: false,
  source: 'logged',
  computedAt: null,
  shared: 0.75,
  agents: [{ agent: payloads[1]!, value: 0.5, ciLow: 0.4, ciHigh: 0.6, n: 20, advantage: null }],
  messageCredit: [0, 0, 0, 0, 0, 0, 0, -0.25, 0.5],
  messageCreditKind: 'spread',
};

const domain = { bound: 1, reward: { min: 0, max: 1 } };

function assertNoMarkup(root: Element): void {
  assert.equal(root.querySelectorAll('script, img, iframe, a, [onerror]').length, 0, root.innerHTML);
}

describe('renderRow', () => {
  const view = () => ({
    count: 100,
    tint: m[6].creditTint(credit, domain),
    query: '',
    labels: new Map([[7, [{ kind: payloads[0]!, agent: null, message: 7, value: null, reason: all }]]]),
  });

  test('shows trace text and agent names as text', () => {
    const row = m[0].renderRow(7, message(), undefined, true, view());
    document.body.append(row);
    assert.equal(row.querySelector('.msg-body')?.textContent, all);
    assert.equal(row.querySelector('.msg-agent')?.textContent, payloads[1]);
    assert.equal(row.querySelector('.msg-label')?.textContent, payloads[0]);
    assertNoMarkup(row);
  });

  test('carries its position, its credit colour and the number for hover and screen readers', () => {
    const row = m[0].renderRow(7, message(), undefined, false, view());
    assert.equal(row.getAttribute('role'), 'listitem');
    assert.equal(row.getAttribute('aria-posinset'), '8');
    assert.equal(row.getAttribute('aria-setsize'), '100');
    assert.equal(row.dataset['credit'], '-0.25');
    assert.equal(row.style.getPropertyValue('--tint'), m[6].creditTint(credit, domain)?.paint(7).color);
    assert.equal(
      row.style.getPropertyValue('--tint-strength'),
      '0.25',
      "|credit| over the run's domain, not the episode's largest",
    );
    assert.equal(row.dataset['creditState'], 'value');
    assert.match(row.querySelector('.msg-credit')?.getAttribute('title') ?? '', /Credit −0\.250 under Leave-one-out/);
    assert.match(row.querySelector('.msg-credit .visually-hidden')?.textContent ?? '', /^Credit −0\.250/);
    assert.equal(row.getAttribute('style')?.includes('--tint'), true, 'set through the CSSOM');
  });

  test('collapsed rows lay out a preview; expanded truncated rows say so', () => {
    const long = 'x'.repeat(m[0].previewChars * 3);
    assert.equal(
      m[0].renderRow(7, message({ content: long }), undefined, false, view()).querySelector('.msg-body')?.textContent
        ?.length,
      m[0].previewChars,
    );
    const row = m[0].renderRow(
      7,
      message({ content: long, truncated: true, contentChars: 100_000 }),
      undefined,
      true,
      view(),
    );
    assert.match(row.querySelector('.msg-note')?.textContent ?? '', /first 1,800 of 100,000 characters/);
    assert.equal(row.querySelector('.msg-toggle')?.getAttribute('aria-expanded'), 'true');
  });

  test('highlights find matches with <mark> around text nodes', () => {
    const row = m[0].renderRow(7, message({ content: 'one <b>two</b> one' }), undefined, false, {
      ...view(),
      query: 'one',
    });
    assert.deepEqual(
      [...row.querySelectorAll('mark')].map((e) => e.textContent),
      ['one', 'one'],
    );
    assert.equal(row.querySelectorAll('b').length, 0);
  });

  test('colours tokens when the message carries attributions', () => {
    const row = m[0].renderRow(
      7,
      message({ tokens: { text: ['<img>', ' ok'], attribution: [0.5, -0.5] } }),
      undefined,
      false,
      view(),
    );
    const tokens = [...row.querySelectorAll<HTMLElement>('.tok')];
    assert.deepEqual(
      tokens.map((t) => t.textContent),
      ['<img>', ' ok'],
    );
    assert.notEqual(tokens[0]?.style.getPropertyValue('--heat'), tokens[1]?.style.getPropertyValue('--heat'));
    assertNoMarkup(row);
  });

  test('a placeholder while loading, and the reason when loading failed', () => {
    assert.equal(
      m[0].renderRow(3, undefined, undefined, false, view()).querySelector('.msg-body')?.textContent,
      'Loading…',
    );
    assert.match(
      m[0].renderRow(3, undefined, payloads[0], false, view()).textContent ?? '',
      /Could not load this message: <script>/,
    );
  });

  test('without credit the row has no colour', () => {
    const row = m[0].renderRow(7, message(), undefined, false, { ...view(), tint: null });
    assert.equal(row.classList.contains('no-credit'), true);
    assert.equal(row.style.getPropertyValue('--tint'), '');
  });

  test('zero, no credit, not identifiable and beyond the scale are four different rows', () => {
    const tint = m[6].creditTint({ ...credit, messageCredit: [0, null, 1.5, -3] }, domain);
    const rows = [0, 1, 2, 3].map((seq) =>
      m[0].renderRow(seq, message({ seq }), undefined, false, { ...view(), tint }),
    );
    assert.deepEqual(
      rows.map((r) => r.dataset['creditState']),
      ['zero', 'none', 'value', 'value'],
    );
    assert.equal(rows[0]?.classList.contains('credit-zero'), true);
    assert.equal(rows[0]?.style.getPropertyValue('--tint'), 'var(--credit-zero)', 'zero is the solid neutral');
    assert.equal(rows[1]?.classList.contains('no-credit'), true);
    assert.match(rows[1]?.querySelector('.msg-credit')?.getAttribute('title') ?? '', /^No credit for this message/);
    assert.equal(rows[2]?.classList.contains('credit-beyond'), true);
    assert.equal(rows[2]?.querySelector('.msg-credit-value')?.textContent, '+1.500▲');
    assert.match(rows[2]?.querySelector('.msg-credit')?.getAttribute('title') ?? '', /beyond the scale's \+1\.00/);
    assert.equal(rows[3]?.querySelector('.msg-credit-value')?.textContent, '−3.000▼');
    const unknown = m[6].creditTint(
      { ...credit, status: 'not-identifiable', reason: payloads[0]!, messageCredit: [] },
      domain,
    );
    const row = m[0].renderRow(0, message({ seq: 0 }), undefined, false, { ...view(), tint: unknown });
    assert.equal(row.dataset['creditState'], 'unidentified');
    assert.equal(row.classList.contains('credit-unidentified'), true);
    assert.equal(row.classList.contains('no-credit'), false);
    assert.equal(row.querySelector('.msg-credit-value')?.textContent, '?');
    assert.equal(
      row.querySelector('.msg-credit')?.getAttribute('title'),
      `Not identifiable under Leave-one-out: ${payloads[0]!}`,
      'the reason, as text',
    );
    assertNoMarkup(row);
  });
});

describe('summary parts', () => {
  const data = {
    ref: { folder: '/f', episodeId: 1 },
    externalId: payloads[0]!,
    runName: payloads[1]!,
    mechanism: payloads[2]!,
    step: 3,
    group: null,
    sample: null,
    task: all,
    reward: 0.75,
    groundTruth: payloads[2]!,
    finalAnswer: { answer: payloads[1]!, agent: payloads[0]! },
    messageCount: 9,
    tokenCount: null,
    agents: [
      {
        name: payloads[1]!,
        kind: 'llm',
        declared: true,
        messages: 3,
        tokens: null,
        loggedReward: null,
        loggedAdvantage: null,
      },
    ],
    labels: [{ kind: 'mistake', agent: payloads[1]!, message: 7, value: payloads[2]!, reason: all }],
    flags: [
      {
        flagId: 1,
        kind: 'idle',
        agent: payloads[0]!,
        scope: 'step',
        steps: [2, 9] as const,
        score: 0.5,
        summary: all,
        evidence: [{ label: payloads[1]!, value: payloads[2]!, children: [{ label: 'nested', value: payloads[0]! }] }],
      },
    ],
    counterfactuals: [
      {
        removed: [payloads[1]!],
        intervention: 'remove',
        reward: 0.25,
        source: 'cached' as const,
        evaluator: payloads[0]!,
        n: 4,
      },
    ],
    evaluator: { configured: true, description: 'x', reason: null },
    defaultMethod: 'loo' as const,
    location: { uri: payloads[2]!, line: 3 },
    readError: null,
    creditDomain: { bound: 1, reward: { min: 0, max: 1 } },
  } satisfies EpisodeViewData;

  test('header, blame, counterfactuals, flags and outcome keep trace text as text', () => {
    const jumps: number[] = [];
    const tint = m[6].creditTint(credit);
    const parts = [
      m[1].renderHeader(data),
      m[1].renderBlame(data.labels, credit, tint, (seq) => jumps.push(seq))!,
      m[2].renderCounterfactuals(data.counterfactuals),
      m[2].renderFlags(data.flags, null, () => jumps.push(-1)),
      m[2].renderOutcome(data, (seq) => jumps.push(seq)),
    ];
    const root = document.createElement('div');
    root.append(...parts);
    assertNoMarkup(root);
    assert.equal(root.querySelector('h1')?.textContent, `Episode ${payloads[0]!}`);
    for (const text of [
      all,
      payloads[2]!,
      `${payloads[1]!}${payloads[2]!}nested${payloads[0]!}`,
      'step 2–9 · score 0.500',
    ])
      assert.ok(root.textContent?.includes(text), text);
    assert.match(
      parts[1]!.textContent ?? '',
      /message #7 · message credit −0\.250 · agent credit \+0\.500 \(Leave-one-out\)/,
    );
    for (const button of root.querySelectorAll<HTMLButtonElement>('button.link-button')) button.click();
    assert.deepEqual(jumps, [7, 7]);
  });

  test("flags: the episode's own listed; the run's windows over its step in one line that opens the dashboard", () => {
    let opened = 0;
    const open = (): void => {
      opened++;
    };
    const windows = { runId: 1, count: 2, step: 12, steps: [10, 40] as const };
    const section = m[2].renderFlags(data.flags, windows, open);
    assert.equal(section.querySelector('h2')?.textContent, 'Flags (1)', 'the windows are not counted as its flags');
    assert.equal(section.querySelectorAll('.flag').length, 1);
    const line = section.querySelector('.run-windows');
    assert.equal(line?.textContent, '2 run-level windows cover step 12 — open in the dashboard');
    const link = line?.querySelector<HTMLButtonElement>('button.link-button');
    assert.equal(link?.title, 'Open the Run Dashboard on steps 10–40');
    link?.click();
    assert.equal(opened, 1);
    const alone = m[2].renderFlags([], { ...windows, count: 1 }, open);
    assert.deepEqual(
      [...alone.querySelectorAll('p')].map((p) => p.textContent),
      ['No flags on this episode.', '1 run-level window covers step 12 — open in the dashboard'],
    );
    assert.equal(m[2].renderFlags([], null, open).querySelector('.run-windows'), null, 'no windows: no line');
  });

  test('agent bars place the value, interval and shared reward; the legend names the scale', () => {
    const section = m[3].renderAgents(m[5].agentBarsModel(data.agents, credit, data.reward), credit);
    const bar = section.querySelector<HTMLElement>('.bar-fill');
    assert.equal(bar?.style.left, '0%');
    assert.equal(bar?.style.width, '62.5%');
    assert.equal(section.querySelector<HTMLElement>('.bar-shared')?.style.left, '93.75%');
    assert.equal(section.querySelector('.agent-name')?.textContent, payloads[1]);
    assert.match(section.querySelector('.agent-details')?.textContent ?? '', /\[0\.400, 0\.600\] · n = 20/);
    const legend = m[4].renderLegend(m[6].creditTint(credit, { bound: 2, reward: { min: -1, max: 1 } }));
    assert.deepEqual(
      [...legend.querySelectorAll('.ramp-end')].map((e) => e.textContent),
      ['−2.00', '+2.00'],
      "the run's domain, not the episode's largest value (0.5)",
    );
    assert.deepEqual(
      [...legend.querySelectorAll('.credit-states li')].map((e) => e.textContent),
      ['zero credit', 'no credit', '?not identifiable', '▲beyond ±2.00'],
    );
    assert.match(legend.querySelector('.credit-domain')?.textContent ?? '', /reward span, −1 to 1\.$/);
    assert.equal(
      legend.querySelector('.legend-kind')?.textContent,
      "Each message shows its agent's Leave-one-out credit spread evenly over the agent's messages.",
      'a sentence, not an orphan "· …" line',
    );
    assert.equal(legend.querySelectorAll('.ramp-stop').length, 11);
    const sourceOf = (reward: { min: number; max: number } | null): string =>
      m[4].renderLegend(m[6].creditTint(credit, { bound: 1, reward }))?.querySelector('.credit-domain')?.textContent ??
      '';
    assert.equal(
      sourceOf(null),
      'Scale fixed at ±1.00 for every method and episode: no reward is logged, so the default.',
    );
    assert.match(sourceOf({ min: 0, max: 0 }), /every logged reward is 0, so the default/);
    assert.match(m[4].renderLegend(null).textContent ?? '', /No message credit to colour/);
  });
});
