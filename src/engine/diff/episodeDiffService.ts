import type { EpisodeViewContext, EpisodeViewService } from '../views/episodeViewService';
import type { EpisodeCreditView, EpisodeViewData, MessageView, ViewMethod } from '../views/viewTypes';
import type {
  DiffCreditSummary,
  DiffSideView,
  DiffTextRow,
  DiffTextSide,
  DiffTextWindow,
  EpisodeDiffData,
} from '../../protocol/episodeDiffPanel';
import { alignMessages, type AlignedRow } from './alignMessages';
import { agentTotals, diffRows, difference, rowCounts } from './diffRows';
import { diffNotes } from './diffNotes';
import { wordDiff } from './wordDiff';

/**
 * Most aligned rows one diff reply carries. Equal to the protocol's `maxDiffRows` (a runtime
 * constant, which engine may not import; a test checks it).
 */
export const maxDiffRows = 20_000;

/** One episode of the pair: the Episode view's service of its folder, and what the host adds to its data. */
export interface DiffSideSource {
  readonly service: EpisodeViewService;
  readonly episodeId: number;
  readonly context: EpisodeViewContext;
}

/** A side as read once per revision: the Episode view's data, its messages (null: unreadable) and authors. */
interface SideRead {
  readonly view: EpisodeViewData;
  readonly messages: readonly MessageView[] | null;
  readonly authors: readonly string[];
  readonly readError: string | null;
}

interface PairRead {
  readonly a: SideRead;
  readonly b: SideRead;
  readonly aligned: readonly AlignedRow[];
}

/**
 * The data of the episode diff: two episodes side by side, their messages aligned by agent and
 * turn index (alignMessages), each message's stored credit under a method on both sides and the
 * difference, the word diff of the texts of a window of rows, rewards and agent totals. Everything
 * is read through the Episode view's services (its header, messages, timeline and credit reads);
 * the pair is read once and kept until {@link refresh}.
 */
export class EpisodeDiffService {
  private pair: Promise<PairRead | undefined> | undefined;

  constructor(
    private readonly a: DiffSideSource,
    private readonly b: DiffSideSource,
  ) {}

  /** The index changed: the next call reads both episodes again. */
  refresh(): void {
    this.pair = undefined;
  }

  /** The pair under `method`; undefined when either episode is no longer in its index. */
  async diff(method: ViewMethod): Promise<EpisodeDiffData | undefined> {
    const pair = await this.read();
    if (!pair) return undefined;
    const creditA = this.credit(this.a, method);
    const creditB = this.credit(this.b, method);
    const all = diffRows(
      pair.aligned,
      { credit: creditA.messageCredit, texts: texts(pair.a) },
      { credit: creditB.messageCredit, texts: texts(pair.b) },
    );
    const rows = all.slice(0, maxDiffRows);
    return {
      ref: { a: pair.a.view.ref, b: pair.b.view.ref },
      method,
      a: sideView(pair.a, creditA, this.a.context),
      b: sideView(pair.b, creditB, this.b.context),
      rewardDelta: difference(pair.a.view.reward, pair.b.view.reward),
      agents: agentTotals(creditA.agents, creditB.agents),
      rows,
      rowsLeftOut: all.length - rows.length,
      counts: rowCounts(all),
      creditDomain: widerDomain(pair.a.view, pair.b.view),
      notes: diffNotes({ a: pair.a, b: pair.b, creditA, creditB, rows: all.length, shown: rows.length }),
    };
  }

  /**
   * The texts of rows `[offset, offset + limit)` (fewer at the end), each paired row word-diffed;
   * undefined when either episode is no longer in its index.
   */
  async texts(offset: number, limit: number): Promise<DiffTextWindow | undefined> {
    const pair = await this.read();
    if (!pair) return undefined;
    const end = Math.min(pair.aligned.length, maxDiffRows, offset + limit);
    const rows: DiffTextRow[] = [];
    for (let row = offset; row < end; row++) {
      const aligned = pair.aligned[row];
      if (aligned) rows.push(textRow(row, aligned, pair));
    }
    return { offset, rows };
  }

  private credit(side: DiffSideSource, method: ViewMethod): EpisodeCreditView {
    return side.service.credit(side.episodeId, method, side.context.evaluator.configured);
  }

  private read(): Promise<PairRead | undefined> {
    this.pair ??= Promise.all([readSide(this.a), readSide(this.b)]).then(([a, b]) =>
      a && b ? { a, b, aligned: alignMessages(a.authors, b.authors) } : undefined,
    );
    return this.pair;
  }
}

/** An episode's data and messages; when the trace cannot be read back, its authors from the index. */
async function readSide(source: DiffSideSource): Promise<SideRead | undefined> {
  const view = source.service.episode(source.episodeId, source.context);
  if (!view) return undefined;
  let readError = view.readError;
  let messages: MessageView[] | null = null;
  if (readError === null) {
    try {
      messages = [...(await source.service.messages(source.episodeId, 0, view.messageCount)).messages];
    } catch (error) {
      readError = error instanceof Error ? error.message : String(error);
    }
  }
  const authors = messages ? messages.map((m) => m.agent) : indexedAuthors(source, view);
  return { view, messages, authors, readError };
}

/** The authors of the messages from the index alone (the swimlanes' timeline); none when it cannot say. */
function indexedAuthors(source: DiffSideSource, view: EpisodeViewData): string[] {
  try {
    return source.service
      .timeline(source.episodeId)
      .authors.map((position) => view.agents[position]?.name ?? '(not in the roster)');
  } catch {
    return [];
  }
}

function texts(side: SideRead): string[] | null {
  return side.messages ? side.messages.map((m) => m.content) : null;
}

function textRow(row: number, aligned: AlignedRow, pair: PairRead): DiffTextRow {
  const a = aligned.kind === 'inserted' ? undefined : pair.a.messages?.[aligned.a];
  const b = aligned.kind === 'deleted' ? undefined : pair.b.messages?.[aligned.b];
  if (a && b) {
    const diff = wordDiff(a.content, b.content);
    return { row, a: textSide(a, diff.a), b: textSide(b, diff.b), capped: diff.capped };
  }
  // A lone message is all changed; a side whose trace cannot be read has no text.
  const lone = (m: MessageView | undefined): DiffTextSide | null =>
    m ? textSide(m, m.content === '' ? [] : [{ text: m.content, changed: aligned.kind !== 'paired' }]) : null;
  return { row, a: lone(a), b: lone(b), capped: null };
}

function textSide(message: MessageView, spans: DiffTextSide['spans']): DiffTextSide {
  return { spans, chars: message.contentChars, truncated: message.truncated };
}

function sideView(side: SideRead, credit: EpisodeCreditView, context: DiffSideSource['context']): DiffSideView {
  const { view } = side;
  const {
    messageCredit: _credit,
    messageMargin: _margin,
    firstError: _error,
    firstErrorNote: _note,
    ...summary
  } = credit;
  return {
    ref: view.ref,
    externalId: view.externalId,
    runName: view.runName,
    step: view.step,
    group: view.group,
    sample: view.sample,
    reward: view.reward,
    messageCount: view.messageCount,
    readError: side.readError,
    credit: summary satisfies DiffCreditSummary,
    evaluator: context.evaluator,
  };
}

/** The wider of the two runs' fixed colour domains, so one colour is one value on both sides. */
function widerDomain(a: EpisodeViewData, b: EpisodeViewData): EpisodeDiffData['creditDomain'] {
  return b.creditDomain.bound > a.creditDomain.bound ? b.creditDomain : a.creditDomain;
}
