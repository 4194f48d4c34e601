import { createHash } from 'node:crypto';
import type { Episode } from '../../core/episode';
import type { CompactEpisode, TraceIssue } from '../../core/indexing';
import type { TextPacker } from '../../core/packedTexts';
import { checkAgentReferences } from '../canonical/agentReferences';
import { decodeEpisode } from '../canonical/decodeEpisode';
import { compactEpisode, type RosterDetails } from '../compactEpisode';
import { canonicalMapper } from './canonicalMapper';
import { messageOf } from './containers/containerItem';
import type { FormatMapper, RecordContext, RecordLocator } from './types';

/** The episodes of one record, and why the record (or some of its episodes) could not be imported. */
export interface MappedRecord {
  readonly episodes: Episode[];
  readonly errors: string[];
}

/**
 * Maps one record with `mapper` and checks every episode against the canonical model (the same
 * rules as a canonical line, so what is indexed is what readEpisode returns). A mapper that fails
 * or throws is an error for the record; an invalid episode is an error for that episode only.
 */
export function mapRecord(mapper: FormatMapper, record: unknown, context: RecordContext): MappedRecord {
  let mapped: ReturnType<FormatMapper['toEpisodes']>;
  try {
    mapped = mapper.toEpisodes(record, context);
  } catch (error) {
    return { episodes: [], errors: [`the ${mapper.format} importer failed: ${messageOf(error)}`] };
  }
  if (!mapped.ok)
    return {
      episodes: [],
      errors: [
        mapper === canonicalMapper
          ? `invalid episode: ${mapped.error}`
          : `not a ${mapper.format} record: ${mapped.error}`,
      ],
    };
  if (mapper === canonicalMapper) return { episodes: mapped.value, errors: [] };
  const episodes: Episode[] = [];
  const errors: string[] = [];
  mapped.value.forEach((episode, i) => {
    const which = mapped.value.length > 1 ? ` ${i + 1} of ${mapped.value.length}` : '';
    try {
      const checked = decodeEpisode(episode, context.roster);
      if (checked.ok) episodes.push(checked.value);
      else errors.push(`the ${mapper.format} importer made an invalid episode${which}: ${checked.error}`);
    } catch (error) {
      errors.push(`the ${mapper.format} importer made an unreadable episode${which}: ${messageOf(error)}`);
    }
  });
  return { episodes, errors };
}

/** Where a record is, for the issues of its episodes. */
export interface RecordPlace {
  readonly uri: string;
  readonly locator: RecordLocator;
  readonly excerpt?: string;
}

/**
 * Maps one record and reduces its episodes to what the index stores, each with the record's
 * locator (and a content hash when the mapper drops repeated rows). Errors become issues at the
 * record's line, and so do references to agents outside an episode's roster, which are left out
 * (canonical/agentReferences.ts; prefixed with the episode's id when the record has several).
 * `texts` collects the message content of the episodes returned (see compactEpisode).
 */
export function importRecord(
  mapper: FormatMapper,
  record: unknown,
  context: RecordContext,
  place: RecordPlace,
  details?: RosterDetails,
  texts?: TextPacker,
): { episodes: CompactEpisode[]; issues: TraceIssue[] } {
  const { episodes, errors } = mapRecord(mapper, record, context);
  const issue = (reason: string): TraceIssue => ({
    uri: place.uri,
    line: place.locator.line,
    offset: place.locator.offset,
    reason,
    ...(place.excerpt !== undefined ? { excerpt: place.excerpt } : {}),
  });
  const compact: CompactEpisode[] = [];
  for (const decoded of episodes) {
    const { episode, warnings } = checkAgentReferences(decoded);
    const which = episodes.length > 1 ? `episode "${episode.id}": ` : '';
    for (const warning of warnings) errors.push(which + warning);
    try {
      const reduced = compactEpisode(episode, place.locator, details, texts);
      compact.push(mapper.dedupeRepeats ? { ...reduced, contentHash: contentHash(decoded) } : reduced);
    } catch (error) {
      errors.push(`cannot index episode "${episode.id}": ${messageOf(error)}`);
    }
  }
  return { episodes: compact, issues: errors.map(issue) };
}

/**
 * A hash of what an episode says (task, prompt, messages, final answer, ground truth, rewards,
 * advantages, metadata), to align a rolling buffer re-dumped across files. When it was logged
 * (step, group, sample, split) is left out: TRL stamps a repeated row with the later step.
 */
export function contentHash(e: Episode): string {
  const said = [
    e.task,
    e.prompt,
    e.messages,
    e.final,
    e.groundTruth,
    e.reward,
    e.agentRewards,
    e.advantages,
    e.metadata,
  ];
  return createHash('sha1').update(JSON.stringify(said)).digest('hex');
}
