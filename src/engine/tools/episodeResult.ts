import type { EpisodeCreditView, EpisodeViewData, MessageWindow } from '../views/viewTypes';
import { capText } from './toolIndex';
import { maxResultChars, type ToolValue } from './toolTypes';

/** The most characters of a message's text read_episode returns. */
export const maxMessageCharsCap = 4000;

/** What read_episode's result is assembled from. */
export interface EpisodeResultInput {
  readonly view: EpisodeViewData;
  readonly credit: EpisodeCreditView;
  /** The message window read back from the trace; undefined past the end or when it cannot be read. */
  readonly messages: MessageWindow | undefined;
  readonly readError: string | null;
  readonly offset: number;
  readonly maxChars: number;
}

/**
 * read_episode's JSON: the episode, each agent's credit and each message's (with the episode
 * credit's source and status on every number, docs/credit-provenance.md), messages cut to
 * `maxChars` with their full length, and the offset of the next page (null at the end).
 */
export function episodeResult(input: EpisodeResultInput): ToolValue {
  const { view, credit } = input;
  const provenance = { source: credit.source, status: credit.valueStatus ?? null };
  const roster = new Map(view.agents.map((a) => [a.name, a]));
  const items = input.messages?.messages ?? [];
  const next = input.offset + items.length;
  return {
    episodeId: view.ref.episodeId,
    externalId: view.externalId,
    run: view.runName,
    step: view.step,
    group: view.group,
    sample: view.sample,
    reward: view.reward,
    task: view.task === null ? null : capText(view.task, maxResultChars),
    groundTruth: view.groundTruth === null ? null : capText(view.groundTruth, maxResultChars),
    finalAnswer: view.finalAnswer
      ? { ...view.finalAnswer, answer: capText(view.finalAnswer.answer, maxResultChars) }
      : null,
    location: { file: view.location.uri, line: view.location.line },
    credit: creditSummary(credit),
    agents: credit.agents.map((a) => ({
      agent: a.agent,
      kind: roster.get(a.agent)?.kind ?? null,
      messages: roster.get(a.agent)?.messages ?? 0,
      credit:
        a.value === null
          ? null
          : {
              value: a.value,
              ci95: a.ciLow === null || a.ciHigh === null ? null : [a.ciLow, a.ciHigh],
              status: a.status ?? provenance.status,
              source: provenance.source,
            },
    })),
    flags: view.flags.map((f) => ({
      flagId: f.flagId,
      kind: f.kind,
      agent: f.agent,
      summary: capText(f.summary, maxResultChars),
    })),
    runWindows: view.runWindows
      ? `${view.runWindows.count} flag window(s) of the run cover step ${view.runWindows.step} (steps ${view.runWindows.steps.join('–')}): list_runs lists them`
      : null,
    messages: {
      total: view.messageCount,
      offset: input.offset,
      nextOffset: next < view.messageCount && items.length > 0 ? next : null,
      readError: input.readError ?? view.readError,
      items: items.map((m) => {
        const value = credit.messageCredit[m.seq] ?? null;
        return {
          seq: m.seq,
          agent: m.agent,
          role: m.role,
          text: capText(m.content, input.maxChars),
          chars: m.contentChars,
          truncated: m.truncated || m.content.length > input.maxChars,
          credit: value === null ? null : { value, kind: credit.messageCreditKind, ...provenance },
        };
      }),
    },
  };
}

function creditSummary(credit: EpisodeCreditView): ToolValue {
  return {
    method: credit.method,
    status: credit.status,
    source: credit.source,
    valueStatus: credit.valueStatus ?? null,
    approximate: credit.approximate,
    reason: credit.reason === null ? null : capText(credit.reason, maxResultChars),
    remedy: credit.remedy ? capText(credit.remedy, maxResultChars) : null,
    computedAt: credit.computedAt,
    teamReward: credit.shared,
    messageCreditKind: credit.messageCreditKind,
    ...(credit.messageCreditKind === 'spread'
      ? { messageCreditNote: "each message carries its agent's credit divided evenly over the agent's messages" }
      : {}),
  };
}
