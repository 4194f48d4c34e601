import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Episode } from '../../core/episode';
import { readEpisode } from '../../ingest/readEpisode';
import { BrowseRepository } from '../../store/browseRepository';
import { CreditColourRepository } from '../../store/creditColourRepository';
import type { Db } from '../../store/database';
import { EpisodeViewRepository, type EpisodeHeader } from '../../store/episodeViewRepository';
import type { PromptView, RawRecordView } from '../../protocol/episodePanel';
import { counterfactualViews } from './counterfactualViews';
import { creditDomain } from './creditDomain';
import { episodeCreditView } from './creditView';
import { metadataView, routingView } from './episodeExtras';
import { episodeFlags } from './flagView';
import { cut, messageWindow, RecentEpisodes } from './messageWindow';
import { readRawRecord } from './rawRecord';
import { timelineView } from './timelineView';
import {
  maxMessageChars,
  type EpisodeCreditView,
  type EpisodeViewData,
  type EvaluatorView,
  type MessageWindow,
  type TimelineView,
  type ViewMethod,
} from './viewTypes';

/** What the host adds to an episode's data: its settings and evaluator. */
export interface EpisodeViewContext {
  readonly defaultMethod: ViewMethod;
  readonly evaluator: EvaluatorView;
}

/**
 * The data of the Episode panel for one indexed folder: the episode without its messages (from the
 * index only), message windows and the prompt (read back from the trace, the last two episodes
 * kept decoded, so an opening reads its record once), the raw record, stored credit per method,
 * and navigation to the adjacent episode of the run.
 */
export class EpisodeViewService {
  private readonly repo: EpisodeViewRepository;
  private readonly browse: BrowseRepository;
  private readonly colours: CreditColourRepository;
  private readonly decoded = new RecentEpisodes<Episode>(2);

  /** `root`: absolute path of the indexed folder (trace uris are relative to it). */
  constructor(
    db: Db,
    private readonly root: string,
  ) {
    this.repo = new EpisodeViewRepository(db);
    this.browse = new BrowseRepository(db);
    this.colours = new CreditColourRepository(db);
  }

  /** The episode as the panel shows it, without message text or credit; undefined when there is no such episode. */
  episode(episodeId: number, context: EpisodeViewContext): EpisodeViewData | undefined {
    const header = this.repo.header(episodeId);
    if (!header) return undefined;
    const roster = this.repo.roster(episodeId);
    return {
      ref: { folder: this.root, episodeId },
      externalId: header.externalId,
      runName: header.runName,
      mechanism: header.mechanism,
      step: header.step,
      group: header.group,
      sample: header.sample,
      task: header.task,
      reward: header.reward,
      groundTruth: header.groundTruth,
      finalAnswer: header.finalAnswer === null ? null : { answer: header.finalAnswer, agent: header.finalAgent },
      messageCount: header.messages,
      tokenCount: header.tokens,
      agents: roster.map((a) => ({
        name: a.name,
        kind: a.kind,
        declared: a.declared,
        messages: a.messages,
        tokens: a.tokens,
        loggedReward: a.reward,
        loggedAdvantage: a.advantage,
      })),
      labels: this.repo
        .labels(episodeId)
        .map((l) => ({ kind: l.kind, agent: l.agent, message: l.messageSeq, value: l.value, reason: l.reason })),
      ...episodeFlags(this.browse.flags(header.runId), header),
      counterfactuals: counterfactualViews({
        roster,
        names: this.repo.agentNames(header.runId),
        counterfactuals: this.repo.counterfactuals(episodeId),
        coalitions: this.repo.coalitions(episodeId),
        evaluations: this.repo.evaluations(episodeId),
      }),
      evaluator: context.evaluator,
      defaultMethod: context.defaultMethod,
      routingLogged: this.repo.evidence(episodeId).routing,
      routing: routingView(this.repo.routing(episodeId)),
      ...metadataView(this.repo.metadataJson(episodeId)),
      location: { uri: header.uri, line: header.line },
      readError: this.readError(header),
      creditDomain: creditDomain(this.colours.rewardSpan(header.runId)),
    };
  }

  /**
   * Messages `[offset, offset + limit)` of the episode, read back from its trace record. Rejects
   * with an Error (`file:line: reason`) when the record cannot be read, or when there is no such episode.
   */
  async messages(episodeId: number, offset: number, limit: number): Promise<MessageWindow> {
    return messageWindow(await this.decode(episodeId), offset, limit);
  }

  /**
   * The episode's task prompt, cut at the message limit, from the same decoded record as its
   * messages. Rejects like {@link messages} when the trace no longer holds the episode.
   */
  async prompt(episodeId: number): Promise<PromptView> {
    const prompt = (await this.decode(episodeId)).prompt;
    if (prompt === undefined) return { text: null, chars: 0, truncated: false };
    const truncated = prompt.length > maxMessageChars;
    return { text: truncated ? cut(prompt, maxMessageChars) : prompt, chars: prompt.length, truncated };
  }

  /** The episode's record as it stands in the trace, size-capped (see readRawRecord). */
  async rawRecord(episodeId: number): Promise<RawRecordView> {
    const read = await readRawRecord(this.root, this.requireHeader(episodeId));
    if (!read.ok) throw new Error(read.error);
    return read.value;
  }

  /** The episode decoded from its trace record (kept for the next window or the prompt). */
  private async decode(episodeId: number): Promise<Episode> {
    const header = this.requireHeader(episodeId);
    const key = `${String(episodeId)}\u0000${header.uri}\u0000${String(header.offset)}\u0000${String(header.length)}`;
    const kept = this.decoded.get(key);
    if (kept) return kept;
    const read = await readEpisode(this.root, header);
    if (!read.ok) throw new Error(read.error);
    // A rewritten file can hold another well-formed episode at the same bytes: never show it as this one.
    if (read.value.id !== header.externalId)
      throw new Error(
        `${header.uri}:${String(header.line)}: the line now holds episode "${read.value.id}", not "${header.externalId}"; re-index the run`,
      );
    this.decoded.set(key, read.value);
    return read.value;
  }

  /** The stored credit of the episode under `method` (see episodeCreditView for the statuses). */
  credit(episodeId: number, method: ViewMethod, evaluatorConfigured: boolean): EpisodeCreditView {
    const header = this.requireHeader(episodeId);
    return episodeCreditView({
      method,
      evaluatorConfigured,
      reward: header.reward,
      roster: this.repo.roster(episodeId),
      authors: this.repo.messageAuthors(episodeId) ?? [],
      rows: this.repo.credit(episodeId, method),
      error: this.repo.latestError(episodeId, method),
      evidence: this.repo.evidence(episodeId),
    });
  }

  /** Every message's author, tokens and flags from the index (no trace read); rejects for an unknown episode. */
  timeline(episodeId: number): TimelineView {
    const index = this.repo.messageIndex(episodeId);
    if (!index) throw new Error(`episode ${String(episodeId)} is not in the index; re-index the folder`);
    return timelineView(index, this.repo.roster(episodeId));
  }

  /** The next or previous episode of the run by (step, group, sample, id), NULLs first; undefined at either end. */
  adjacent(episodeId: number, direction: 'next' | 'previous'): number | undefined {
    return this.repo.adjacent(episodeId, direction);
  }

  /** Why the trace line cannot be read back, judged from the file's presence and size only (the line itself may be large). */
  private readError(header: EpisodeHeader): string | null {
    const where = `${header.uri}:${String(header.line)}`;
    let size: number;
    try {
      const stat = statSync(join(this.root, header.uri), { throwIfNoEntry: false });
      if (!stat?.isFile()) return `${where}: the trace file is missing; re-index the run`;
      size = stat.size;
    } catch (error) {
      return `${where}: cannot read the trace file: ${(error as Error).message}`;
    }
    return size < header.offset + header.length
      ? `${where}: the file is shorter than when it was indexed; re-index the run`
      : null;
  }

  private requireHeader(episodeId: number): EpisodeHeader {
    const header = this.repo.header(episodeId);
    if (!header) throw new Error(`episode ${String(episodeId)} is not in the index; re-index the folder`);
    return header;
  }
}
