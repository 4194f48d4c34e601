/** Where a command writes; injected so tests can capture output. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The stream for a progress bar, when stderr is a terminal. */
  readonly tty?: NodeJS.WriteStream;
}

/** Thrown for bad command-line usage; exits with code 2 and the usage text. */
export class UsageError extends Error {}

/** Exit codes: bad lines in traces are not failures; only fatal errors and usage are. */
export const exitCodes = { ok: 0, fatal: 1, usage: 2 } as const;
