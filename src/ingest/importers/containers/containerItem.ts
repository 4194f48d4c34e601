import type { RecordLocator } from '../types';

/** A record as a container streams it: parsed, with where it is and what the file says around it. */
export interface ContainerRecord {
  readonly kind: 'record';
  readonly record: unknown;
  readonly locator: RecordLocator;
  /** See RecordContext.index: the same value when the record is read back alone. */
  readonly index: number;
  readonly header?: Readonly<Record<string, unknown>>;
  /** The start of the raw record, for issues (containers of text records set it). */
  readonly excerpt?: string;
}

/** A record that could not be read (bad JSON, a broken zip entry), or a problem with the whole file (line 0). */
export interface ContainerIssue {
  readonly kind: 'issue';
  readonly locator: RecordLocator;
  readonly reason: string;
  readonly excerpt?: string;
}

export type ContainerItem = ContainerRecord | ContainerIssue;

/** A record read back alone by its locator. */
export interface LocatedRecord {
  readonly record: unknown;
  readonly index: number;
  readonly header?: Readonly<Record<string, unknown>>;
}

/** Which records of a file a mapper reads (FormatMapper.jsonRecords / zipRecords / zipHeader). */
export interface RecordSelection {
  readonly json?: 'root' | 'array' | { readonly property: string };
  readonly zipRecords?: RegExp;
  readonly zipHeader?: string;
}

export const excerptLength = 120;

/** The first characters of a raw record, for an issue. */
export function excerptOf(bytes: Buffer | string): string {
  const text =
    typeof bytes === 'string'
      ? bytes.slice(0, excerptLength * 4)
      : bytes.toString('utf8', 0, Math.min(bytes.length, excerptLength * 4));
  return text.replace(/^\uFEFF/, '').slice(0, excerptLength);
}

/** The message of a caught error. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A whole-file problem (line 0). */
export function fileIssue(reason: string): ContainerIssue {
  return { kind: 'issue', locator: { line: 0, offset: 0, length: 0 }, reason };
}
