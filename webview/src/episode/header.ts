import type { EpisodeCreditView, EpisodeViewData, LabelView } from '../../../src/protocol/episodePanel';
import { h } from '../dom';
import { linkButton } from './linkButton';
import { formatCredit, formatInt, formatNumber, formatPosition } from '../kit/format';
import { methodLabels } from '../methodLabels';
import type { CreditTint } from './tint';
import { blameAgreement, firstErrorGlyph, firstErrorNote, firstErrorOf, firstErrorSource } from './firstError';

/**
 * The episode's title and facts: run, position, task, reward, counts, trace location; with
 * `openGroup`, a link to the episode's GRPO group ("group g · 4 rollouts") when it logs one; with
 * `diffWith`, a "Diff with…" link that puts the episode beside another in the diff view.
 */
export function renderHeader(data: EpisodeViewData, openGroup?: () => void, diffWith?: () => void): HTMLElement {
  const facts: [string, string][] = [
    ['Run', data.runName || '(root)'],
    ['Mechanism', data.mechanism ?? '—'],
    ['Position', formatPosition(data.step, data.group, data.sample) || '—'],
    ['Reward', formatNumber(data.reward)],
    ['Messages', formatInt(data.messageCount)],
    ['Tokens', data.tokenCount === null ? '—' : formatInt(data.tokenCount)],
  ];
  const list = h(
    'dl',
    'facts',
    ...facts.map(([term, value]) => h('div', 'fact', h('dt', undefined, term), h('dd', undefined, value))),
  );
  const header = h('header', 'episode-header', h('h1', undefined, `Episode ${data.externalId}`), list);
  const rollouts = data.groupRollouts ?? null;
  if (openGroup && data.group !== null && rollouts !== null) {
    const label = `group ${data.group} · ${formatInt(rollouts)} rollout${rollouts === 1 ? '' : 's'}`;
    header.append(h('p', 'group-link', linkButton(label, openGroup, 'Open the GRPO group side by side')));
  }
  if (diffWith)
    header.append(
      h(
        'p',
        'diff-link',
        linkButton('Diff with…', diffWith, 'Put this episode beside another (its group’s rollouts first)'),
      ),
    );
  if (data.task !== null) header.append(h('p', 'task', h('span', 'task-label', 'Task: '), data.task));
  header.append(h('p', 'location', `${data.location.uri}:${String(data.location.line)}`));
  if (data.readError !== null)
    header.append(h('p', 'error', `Messages unavailable: the trace line could not be read back (${data.readError}).`));
  return header;
}

/**
 * The blame labels of the trace (e.g. Who&When's mistake step) beside the credit the chosen method
 * gives the blamed message and agent, with a way to jump to the message; then, under a per-message
 * method, the failed episode's first error (or why none is named) and whether it agrees with them.
 */
export function renderBlame(
  labels: readonly LabelView[],
  credit: EpisodeCreditView | null,
  tint: CreditTint | null,
  goTo: (seq: number) => void,
): HTMLElement | null {
  const pointed = labels.filter((l) => l.message !== null || l.agent !== null);
  const firstError = renderFirstError(labels, credit, goTo);
  if (pointed.length === 0) return firstError && h('div', 'blame', firstError);
  const items = pointed.map((label) => {
    const parts: (string | Node)[] = [h('strong', undefined, label.kind), label.value ? ` (${label.value})` : ''];
    if (label.agent !== null) parts.push(' · agent ', h('span', 'agent-name', label.agent));
    if (label.message !== null) {
      const seq = label.message;
      parts.push(
        ' · ',
        linkButton(`message #${formatInt(seq)}`, () => goTo(seq), 'Go to the labelled message'),
      );
      if (tint) parts.push(` · message credit ${formatCredit(tint.value(seq))}`);
    }
    const agentCredit = label.agent === null ? undefined : credit?.agents.find((a) => a.agent === label.agent);
    if (agentCredit) parts.push(` · agent credit ${formatCredit(agentCredit.value)}`);
    if (credit) parts.push(` (${methodLabels[credit.method]})`);
    const item = h('li', 'blame-item', ...parts);
    if (label.reason) item.title = label.reason;
    return item;
  });
  const blame = h('div', 'blame', h('span', 'blame-title', 'Labelled blame'), h('ul', 'blame-list', ...items));
  if (firstError) blame.append(firstError);
  return blame;
}

/** "First error: message #N (agent X), from …" with a jump to the message; "none named" with the reason. */
function renderFirstError(
  labels: readonly LabelView[],
  credit: EpisodeCreditView | null,
  goTo: (seq: number) => void,
): HTMLElement | null {
  const error = firstErrorOf(credit);
  if (!error) {
    const note = firstErrorNote(credit);
    return note === null ? null : h('p', 'first-error-line is-none', `First error: none named — ${note}.`);
  }
  const glyph = h('span', 'first-error-glyph', `${firstErrorGlyph} `);
  glyph.setAttribute('aria-hidden', 'true');
  const seq = error.message;
  const parts: (string | Node)[] = [
    glyph,
    h('strong', undefined, 'First error: '),
    linkButton(`message #${formatInt(seq)}`, () => goTo(seq), 'Go to the first error'),
  ];
  if (error.agent !== null) parts.push(' (agent ', h('span', 'agent-name', error.agent), ')');
  parts.push(`, from ${firstErrorSource(error)}`);
  const agreement = blameAgreement(error, labels);
  if (agreement) parts.push(` · ${agreement}`);
  return h('p', 'first-error-line', ...parts);
}
