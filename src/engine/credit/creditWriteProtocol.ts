import type { CreditParams, CreditRow } from '../../core/creditInput';
import type { ComputedStatus } from '../../core/provenance';
import type { CreditFailure, NewCachedEvaluation, StoredCalibration } from '../../store/creditRepository';

// The messages between a credit pass and its write worker (creditWrites.ts, creditWriteWorker.ts).
// Credit rows cross as columns: numbers in one Float64Array (transferred, not copied), their nulls
// in a bit mask, the three text columns as indices into a small table. Structured-cloning the
// rows as objects cost the pass's own thread about as much as the writes it moved away.

/** What the pass passes to the write worker. */
export interface CreditWriteWorkerData {
  readonly role: 'credit-writes';
  readonly dbPath: string;
  /** The run whose aggregates the worker marks stale before anything else (the pass took the mark). */
  readonly staleRun?: number;
}

/** A batch of {@link CreditRow}s laid out for postMessage. */
export interface PackedCreditRows {
  readonly count: number;
  /** Row-major, {@link numberColumns} per row; a null reads as 0 here and is marked in `nulls`. */
  readonly numbers: Float64Array<ArrayBuffer>;
  /** Bit c of row r: column c of {@link numberColumns} is null. */
  readonly nulls: Uint16Array<ArrayBuffer>;
  /** Per row: indices into `texts` of status, source and intervention (0xffff: null). */
  readonly textIds: Uint16Array<ArrayBuffer>;
  readonly texts: readonly string[];
}

/** From the pass to the worker; each is answered once it is done (`done`, or `committed`), or has failed. */
export type CreditWriteRequest =
  | {
      readonly kind: 'credit';
      readonly runId: number;
      readonly params: CreditParams;
      readonly rows: PackedCreditRows;
      readonly failures: readonly CreditFailure[];
      readonly replace: boolean;
    }
  | {
      readonly kind: 'evaluations';
      readonly rows: readonly NewCachedEvaluation[];
    }
  | { readonly kind: 'calibration'; readonly runId: number; readonly calibration: StoredCalibration }
  | { readonly kind: 'commit'; readonly seq: number };

/** From the worker to the pass. */
export type CreditWriteReply =
  | { readonly kind: 'done' }
  | { readonly kind: 'committed'; readonly seq: number }
  | { readonly kind: 'failed'; readonly message: string };

const numberColumns = [
  'episodeId',
  'agentId',
  'messageSeq',
  'value',
  'stderr',
  'ciLow',
  'ciHigh',
  'n',
  'advantage',
] as const;
const width = numberColumns.length;
const noText = 0xffff;

/** Lays `rows` out as {@link PackedCreditRows}; `unpackCreditRows` gives them back equal. */
export function packCreditRows(rows: readonly CreditRow[]): PackedCreditRows {
  const numbers = new Float64Array(rows.length * width);
  const nulls = new Uint16Array(rows.length);
  const textIds = new Uint16Array(rows.length * 3);
  const texts: string[] = [];
  const idOf = new Map<string, number>();
  const textId = (text: string | null): number => {
    if (text === null) return noText;
    let id = idOf.get(text);
    if (id === undefined) {
      id = texts.push(text) - 1;
      if (id >= noText) throw new Error('too many distinct texts in one batch of credit rows');
      idOf.set(text, id);
    }
    return id;
  };
  rows.forEach((row, r) => {
    let mask = 0;
    for (let c = 0; c < width; c++) {
      const value = row[numberColumns[c] as (typeof numberColumns)[number]];
      if (value === null) mask |= 1 << c;
      else numbers[r * width + c] = value;
    }
    nulls[r] = mask;
    textIds[r * 3] = textId(row.status);
    textIds[r * 3 + 1] = textId(row.source);
    textIds[r * 3 + 2] = textId(row.intervention);
  });
  return { count: rows.length, numbers, nulls, textIds, texts };
}

/** The rows {@link packCreditRows} laid out. */
export function unpackCreditRows(packed: PackedCreditRows): CreditRow[] {
  const { numbers, nulls, textIds, texts } = packed;
  const text = (id: number | undefined): string | null =>
    id === undefined || id === noText ? null : (texts[id] ?? null);
  const rows: CreditRow[] = [];
  for (let r = 0; r < packed.count; r++) {
    const mask = nulls[r] ?? 0;
    const at = (c: number): number | null => ((mask >> c) & 1 ? null : (numbers[r * width + c] ?? 0));
    // A column the type calls non-null comes back as it went in, null included: nothing is filled in.
    rows.push({
      episodeId: at(0) as number,
      agentId: at(1) as number,
      messageSeq: at(2),
      value: at(3) as number,
      stderr: at(4),
      ciLow: at(5),
      ciHigh: at(6),
      n: at(7),
      advantage: at(8),
      status: text(textIds[r * 3]) as ComputedStatus,
      source: text(textIds[r * 3 + 1]) as string,
      intervention: text(textIds[r * 3 + 2]),
    });
  }
  return rows;
}
