import type { ChatClientStats, TokenUsage } from '../../../core/chat';

/**
 * The running totals behind `ChatClient.stats()`. `elapsedMs` is busy time: the wall time during
 * which at least one request was under way, so `calls / elapsedMs` is the achieved throughput
 * whatever the concurrency.
 */
export class ClientStats {
  private calls = 0;
  private failedCalls = 0;
  private retries = 0;
  private promptTokens = 0;
  private completionTokens = 0;
  private busyMs = 0;
  private active = 0;
  private busySince = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A request started. */
  started(): void {
    this.calls++;
    if (this.active++ === 0) this.busySince = this.now();
  }

  /** A request ended: with its usage, with a failure (`'failed'`), or cancelled (counted in neither). */
  ended(result: TokenUsage | 'failed' | 'cancelled'): void {
    if (result === 'failed') this.failedCalls++;
    else if (result !== 'cancelled') {
      this.promptTokens += result.promptTokens;
      this.completionTokens += result.completionTokens;
    }
    if (--this.active === 0) this.busyMs += this.now() - this.busySince;
  }

  /** An attempt failed and another one will be made. */
  retried(): void {
    this.retries++;
  }

  snapshot(): ChatClientStats {
    const running = this.active > 0 ? this.now() - this.busySince : 0;
    return {
      calls: this.calls,
      failedCalls: this.failedCalls,
      retries: this.retries,
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      elapsedMs: Math.round(this.busyMs + running),
    };
  }
}
