import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The payload of one request (the `id` is added here). */
export interface EvaluatorPayload {
  readonly episode: unknown;
  readonly kind: 'agents' | 'messages';
  readonly coalitions: readonly (readonly (string | number)[])[];
}

/** One response: a reward per coalition, and whether the evaluator says it re-generated downstream agents. */
export interface EvaluatorAnswer {
  readonly rewards: number[];
  readonly replayed: boolean;
}

interface Pending {
  readonly resolve: (answer: EvaluatorAnswer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Consecutive failures (crashes or timeouts) without a single answer before the evaluator is given up. */
const maxConsecutiveFailures = 5;

/**
 * One long-lived evaluator process with request ids, a per-request timeout, a bound on requests in
 * flight, and restart on crash. Never hangs: every request settles, by an answer, an error line, a
 * timeout (which restarts the process) or the process's exit.
 */
export class EvaluatorProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;
  private failures = 0;
  private stderrTail = '';
  private closed = false;

  constructor(
    private readonly command: string,
    private readonly cwd: string,
    private readonly timeoutMs: number,
    private readonly concurrency: number,
  ) {}

  async request(payload: EvaluatorPayload): Promise<EvaluatorAnswer> {
    if (this.failures >= maxConsecutiveFailures) {
      throw new Error(`the evaluator command failed ${this.failures} times in a row and was given up${this.tail()}`);
    }
    while (this.pending.size >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const child = this.ensureStarted();
    const id = this.nextId++;
    return new Promise<EvaluatorAnswer>((resolve, reject) => {
      const timer = setTimeout(() => this.timeOut(id), this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      child.stdin.write(`${JSON.stringify({ id, ...payload })}\n`);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new Error('the evaluator was closed'));
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    child.stdin.end();
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
    });
  }

  private ensureStarted(): ChildProcessWithoutNullStreams {
    if (this.child && this.child.exitCode === null) return this.child;
    const child = spawn(this.command, { cwd: this.cwd, shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stdin.on('error', () => undefined); // EPIPE after a crash is reported through 'exit'
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => this.onLine(line));
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    child.on('error', (error) => this.onExit(child, null, null, error));
    return child;
  }

  private onLine(line: string): void {
    let message: { id?: unknown; rewards?: unknown; error?: unknown; replayed?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return; // not protocol output (a stray print); the request it belonged to times out
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending || typeof message.id !== 'number') return;
    this.settle(message.id);
    if (typeof message.error === 'string') return pending.reject(new Error(`the evaluator reported: ${message.error}`));
    const rewards = message.rewards;
    if (!Array.isArray(rewards) || !rewards.every((r) => typeof r === 'number' && Number.isFinite(r))) {
      return pending.reject(new Error('the evaluator answered without a "rewards" array of finite numbers'));
    }
    this.failures = 0;
    // Only an explicit `replayed: true` claims re-generation; anything else is a checker's score.
    pending.resolve({ rewards: rewards as number[], replayed: message.replayed === true });
  }

  private timeOut(id: number): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.settle(id);
    this.failures++;
    pending.reject(new Error(`the evaluator did not answer within ${this.timeoutMs} ms; it was restarted`));
    this.restart();
  }

  private onExit(
    child: ChildProcessWithoutNullStreams,
    code: number | null,
    signal: string | null,
    error?: Error,
  ): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.closed || this.pending.size === 0) return;
    this.failures++;
    const why = error ? error.message : signal ? `was killed by ${signal}` : `exited with code ${code}`;
    this.failAll(new Error(`the evaluator ${why}${this.tail()}`));
  }

  private restart(): void {
    const child = this.child;
    this.child = undefined;
    this.failAll(new Error('the evaluator was restarted after another request timed out'));
    child?.kill('SIGKILL');
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) {
      const pending = this.pending.get(id);
      this.settle(id);
      pending?.reject(error);
    }
  }

  private settle(id: number): void {
    const pending = this.pending.get(id);
    if (pending) clearTimeout(pending.timer);
    this.pending.delete(id);
    this.waiting.shift()?.();
  }

  private tail(): string {
    const text = this.stderrTail.trim();
    return text ? ` (stderr: ${text.slice(-300)})` : '';
  }
}
