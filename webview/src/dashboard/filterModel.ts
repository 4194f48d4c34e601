import type { EpisodeFilter, EpisodeSortKey } from '../../../src/protocol/dashboardPanel';
import type { EpisodeSort } from './viewState';

/** Filter fields typed as text by the user. */
export type TextFilterField = 'stepFrom' | 'stepTo' | 'group' | 'rewardMin' | 'rewardMax' | 'search';
export const numericFields: readonly TextFilterField[] = ['stepFrom', 'stepTo', 'rewardMin', 'rewardMax'];

/** What a typed field means: a value, no filter (`null`), or input that is not a number. */
export type ParsedField = { readonly ok: true; readonly value: number | string | null } | { readonly ok: false };

/**
 * Parses the text of a filter field: blank is no filter; numeric fields take a finite number
 * (steps: an integer); text fields are trimmed.
 */
export function parseFilterField(field: TextFilterField, text: string): ParsedField {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!numericFields.includes(field)) return { ok: true, value: trimmed.slice(0, 1024) };
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return { ok: false };
  if ((field === 'stepFrom' || field === 'stepTo') && !Number.isInteger(n)) return { ok: false };
  return { ok: true, value: n };
}

/** The text a filter field shows for `filter`. */
export function fieldText(filter: EpisodeFilter, field: TextFilterField): string {
  const value = filter[field];
  return value === undefined || value === null ? '' : String(value);
}

/** `filter` without its empty entries (absent, null or blank), keys in a fixed order: for requests and cache keys. */
export function cleanFilter(filter: EpisodeFilter): EpisodeFilter {
  const order: (keyof EpisodeFilter)[] = [
    'stepFrom',
    'stepTo',
    'group',
    'rewardMin',
    'rewardMax',
    'flag',
    'agent',
    'search',
    'agentCredit',
  ];
  const out: Record<string, unknown> = {};
  for (const key of order) {
    const value = filter[key];
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  return out;
}

/** Whether any filter is set. */
export function hasFilter(filter: EpisodeFilter): boolean {
  return Object.keys(cleanFilter(filter)).length > 0;
}

/** `filter` with `patch` applied (null clears a field). */
export function patchFilter(filter: EpisodeFilter, patch: EpisodeFilter): EpisodeFilter {
  return cleanFilter({ ...filter, ...patch });
}

/** The sort after a click on `key`'s header: the same key flips direction, another key starts ascending. */
export function nextSort(sort: EpisodeSort, key: EpisodeSortKey): EpisodeSort {
  return sort.key === key ? { key, descending: !sort.descending } : { key, descending: false };
}

/** A short reading of the filter for the table's status line, e.g. "steps 28–59 · flag: decoupling". */
export function describeFilter(filter: EpisodeFilter): string {
  const f = cleanFilter(filter);
  const parts: string[] = [];
  const range = (a: number | null | undefined, b: number | null | undefined): string =>
    `${a == null ? '…' : String(a)}–${b == null ? '…' : String(b)}`;
  if (f.stepFrom !== undefined || f.stepTo !== undefined) parts.push(`steps ${range(f.stepFrom, f.stepTo)}`);
  if (f.rewardMin !== undefined || f.rewardMax !== undefined) parts.push(`reward ${range(f.rewardMin, f.rewardMax)}`);
  if (f.group) parts.push(`group: ${f.group}`);
  if (f.flag) parts.push(f.flag === 'any' ? 'flagged' : `flag: ${f.flag}`);
  if (f.agent) parts.push(`agent: ${f.agent}`);
  if (f.search) parts.push(`search: ${f.search}`);
  if (f.agentCredit) parts.push(`${f.agentCredit.agent} credit ${range(f.agentCredit.min, f.agentCredit.max)}`);
  return parts.join(' · ');
}
