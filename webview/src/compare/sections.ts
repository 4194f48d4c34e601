import type { CompareSideKey, ComparisonView } from '../../../src/protocol/comparePanel';
import { h } from '../dom';
import { formatCredit } from '../kit/format';
import { differenceText, pairingSentences, stepsText, type ExamplePairView } from './compareText';

// The Compare view's sections around the chart: what was paired (and what was excluded), the
// engine's notes, the flags that changed, and the example pairs with their "Open A" / "Open B".

/** Opens one episode of an example pair in the Episode view. */
export type OpenExample = (pair: ExamplePairView, side: CompareSideKey) => void;

/** The pairing summary and the team reward's difference, in sentences. */
export function renderPairing(c: ComparisonView): HTMLElement {
  const section = h('section', 'pairing', h('h2', undefined, 'Pairing'));
  for (const sentence of pairingSentences(c)) section.append(h('p', 'pairing-line', sentence));
  section.append(h('p', 'reward-line', `Team reward, B \u2212 A: ${differenceText(c.reward)}.`));
  return section;
}

/** Every flag kind on every agent that appeared, disappeared or was kept between A and B. */
export function renderFlagChanges(c: ComparisonView): HTMLElement {
  const section = h('section', 'flag-changes-section', h('h2', undefined, 'Flags, A \u2192 B'));
  if (c.flags.length === 0) {
    section.append(h('p', 'placeholder', 'No audit flag on either side.'));
    return section;
  }
  const head = h(
    'tr',
    undefined,
    ...['Agent', 'Flag', 'Change', 'Steps in A', 'Steps in B'].map((t) => h('th', undefined, t)),
  );
  const rows = c.flags.map((flag) =>
    h(
      'tr',
      `flag-change change-${flag.change}`,
      h('td', 'agent-name', flag.agent),
      h('td', undefined, flag.kind),
      h('td', 'change', flag.change),
      h('td', undefined, flag.stepsA ? stepsText(flag.stepsA) : '\u2014'),
      h('td', undefined, flag.stepsB ? stepsText(flag.stepsB) : '\u2014'),
    ),
  );
  const table = h('table', 'data-table compare-flags', h('thead', undefined, head), h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', 'Audit flags that appeared, disappeared or were kept');
  section.append(table);
  return section;
}

/** The pairs that show the change best, each episode one button away from the Episode view. */
export function renderExamples(c: ComparisonView, open: OpenExample): HTMLElement {
  const section = h('section', 'examples', h('h2', undefined, 'Example pairs (largest change first)'));
  if (c.examples.length === 0) {
    section.append(h('p', 'placeholder', 'No example pair: no agent\u2019s credit is paired on both sides.'));
    return section;
  }
  const head = h(
    'tr',
    undefined,
    ...['Agent', 'Paired on', 'Credit A', 'Credit B', 'B \u2212 A', 'Episodes'].map((t) => h('th', undefined, t)),
  );
  const rows = c.examples.map((pair) => {
    const change = pair.creditA === null || pair.creditB === null ? null : pair.creditB - pair.creditA;
    return h(
      'tr',
      'example',
      h('td', 'agent-name', pair.agent),
      h('td', 'example-key', pair.key),
      h('td', 'num', formatCredit(pair.creditA)),
      h('td', 'num', formatCredit(pair.creditB)),
      h('td', 'num', formatCredit(change)),
      h('td', 'example-open', openButton(pair, 'a', open), ' ', openButton(pair, 'b', open)),
    );
  });
  const table = h('table', 'data-table compare-examples', h('thead', undefined, head), h('tbody', undefined, ...rows));
  table.setAttribute('aria-label', 'Example pairs of episodes');
  section.append(table);
  return section;
}

function openButton(pair: ExamplePairView, side: CompareSideKey, open: OpenExample): HTMLButtonElement {
  const episode = side === 'a' ? pair.episodeA : pair.episodeB;
  const button = h('button', 'link-button example-button', side === 'a' ? 'Open A' : 'Open B');
  button.type = 'button';
  button.title = `Open episode ${episode} (${side === 'a' ? 'A' : 'B'}) in the Episode view`;
  button.setAttribute('aria-label', `Open ${side === 'a' ? 'A' : 'B'}: episode ${episode}`);
  button.dataset['side'] = side;
  button.addEventListener('click', () => {
    open(pair, side);
  });
  return button;
}
