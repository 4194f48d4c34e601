/**
 * An incremental parser of server-sent events (the WHATWG `text/event-stream` format) that yields
 * each event's `data`: lines end with CRLF, LF or CR (also split across chunks); `data:` lines of
 * one event are joined with "\n"; comment lines (`: ping`) and other fields are ignored; an event
 * ends at a blank line. Pure: feed it decoded text, it returns the completed events' data.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  /** A chunk ended in CR: a LF starting the next one belongs to the same line break. */
  private pendingCr = false;

  /** Adds `text` and returns the data of every event it completed, in order. */
  push(text: string): string[] {
    let chunk = text;
    if (this.pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.pendingCr = chunk.endsWith('\r');
    this.buffer += chunk;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    return lines.flatMap((line) => this.onLine(line));
  }

  /**
   * Ends the stream: the data of an event still open. The standard drops an event without its
   * closing blank line; servers that end on `data: [DONE]\n` are common enough to accept it.
   */
  end(): string[] {
    const last = this.buffer === '' ? [] : this.onLine(this.buffer);
    this.buffer = '';
    return [...last, ...this.onLine('')];
  }

  private onLine(line: string): string[] {
    if (line === '') {
      const event = this.data;
      this.data = [];
      return event.length > 0 ? [event.join('\n')] : [];
    }
    if (line.startsWith(':')) return [];
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return [];
    const value = colon < 0 ? '' : line.slice(colon + 1);
    this.data.push(value.startsWith(' ') ? value.slice(1) : value);
    return [];
  }
}
