/**
 * Counts the seconds of video really watched between two progress reports: the advance of the
 * playback position while playing, never a jump (seeking) and never wall-clock time, so a
 * lesson left paused or skipped through does not count as learnt.
 */

/** Playback at 2× with timeupdate every 250 ms advances 0.5 s; a larger step is a jump. */
const MAX_STEP_SECONDS = 2;

export class WatchMeter {
  private last: number | null = null;
  private seconds = 0;

  /** The position while playing (timeupdate). */
  tick(position: number): void {
    if (this.last !== null) {
      const step = position - this.last;
      if (step > 0 && step <= MAX_STEP_SECONDS) this.seconds += step;
    }
    this.last = position;
  }

  /** A seek or a new start: the next tick counts from here. */
  jump(position: number): void {
    this.last = position;
  }

  /** Whole seconds watched since the last take (at most `max`); the rest waits for the next report. */
  take(max = Number.POSITIVE_INFINITY): number {
    const whole = Math.min(Math.floor(this.seconds), max);
    this.seconds -= whole;
    return whole;
  }

  /** A report that did not arrive: its seconds go into the next one. */
  giveBack(seconds: number): void {
    this.seconds += seconds;
  }
}
