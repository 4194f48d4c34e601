import type { IndexProgress } from '../core/indexProgress';
import { count, megabytes } from '../engine/report/format';

const width = 30;

/** A one-line progress bar redrawn in place on a TTY (stderr), cleared when done. */
export class ProgressBar {
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(p: IndexProgress): void {
    const fraction = p.phase === 'search' ? 1 : p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 1;
    const detail =
      p.phase === 'search'
        ? `building search index: ${count(p.searchEpisodes)} episodes`
        : `${megabytes(p.bytesDone)} / ${megabytes(p.bytesTotal)}, ${count(p.episodesAdded)} episodes, ${count(p.issues)} errors`;
    this.draw(fraction, detail);
  }

  /** Redraws the bar at `fraction` (0..1) with a detail text. */
  draw(fraction: number, detail: string): void {
    const clamped = Math.max(0, Math.min(1, fraction));
    const filled = Math.round(clamped * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    this.stream.write(`\r${bar} ${(clamped * 100).toFixed(0).padStart(3)}% ${detail}\u001b[K`);
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) this.stream.write('\r\u001b[K');
    this.drawn = false;
  }
}
