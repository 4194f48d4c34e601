import { writeSync } from 'node:fs';

/** What a writer waits on between tries at a full pipe (never notified: a 1 ms sleep). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * A line writer to `fd` that returns once the line is written. `process.stdout.write` is
 * asynchronous on a POSIX pipe: a command that prints faster than its reader reads (`credit --json
 * | jq`) queued its whole output in memory — the 1 GB run's 55 MB report peaked at 397 MB piped
 * against 270 MB written to a file (BENCHMARKS.md, issue 15 eleventh part). Here the command waits
 * for its reader instead. A full non-blocking pipe (EAGAIN) is tried again after a millisecond; a
 * pipe the reader closed (EPIPE, `… | head`) calls `onClosed` and the line is dropped.
 */
export function syncLineWriter(fd: number, onClosed: () => void): (line: string) => void {
  let closed = false;
  return (line) => {
    if (closed) return;
    let bytes = Buffer.from(`${line}\n`, 'utf8');
    while (bytes.length > 0) {
      try {
        bytes = bytes.subarray(writeSync(fd, bytes));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 1);
        else if (code === 'EPIPE') {
          closed = true;
          onClosed();
          return;
        } else throw error;
      }
    }
  };
}
