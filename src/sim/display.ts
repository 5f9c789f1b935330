// The terminal side of the sim: keeps track of the live region drawn below the
// transcript and of the window title, and turns views into writes.

import {
  BRACKETED_PASTE_ON,
  busyTitle,
  exitSequence,
  frame,
  idleTitle,
  type Region,
  type RegionView,
  renderRegion,
  rowsAboveAfterResize,
  setTitle,
} from './screen.js';
import type { Role } from './script.js';

export interface DisplayOutput {
  write(text: string): unknown;
  columns?: number;
}

export class LiveDisplay {
  private width: number;
  /** Rows between the live region's first row and the cursor. */
  private rowsAbove = 0;
  private region: Region | null = null;
  private title = '';
  private broken = false;

  constructor(
    private readonly output: DisplayOutput,
    private readonly who: { name: string; role: Role },
  ) {
    this.width = this.columns();
  }

  private columns(): number {
    const columns = this.output.columns;
    return columns !== undefined && columns > 0 ? columns : 80;
  }

  private write(text: string): void {
    if (!this.broken) this.output.write(text);
  }

  /** Stop writing (the output failed, e.g. the pty went away). */
  markBroken(): void {
    this.broken = true;
  }

  start(): void {
    this.write(BRACKETED_PASTE_ON);
  }

  /**
   * Write `transcript` lines above the live region for good and redraw the
   * region as `view`; `spinnerFrame` is the busy title's frame, or null when idle.
   */
  draw(view: RegionView, spinnerFrame: number | null, transcript: readonly string[] = []): void {
    const { name, role } = this.who;
    const title = spinnerFrame === null ? idleTitle(name, role) : busyTitle(name, role, spinnerFrame);
    const region = renderRegion(view, this.width);
    const next = frame(this.rowsAbove, transcript, region);
    this.write((title === this.title ? '' : setTitle(title)) + next.out);
    this.title = title;
    this.rowsAbove = next.rowsAbove;
    this.region = region;
  }

  /** Adopt the output's new width; the caller redraws. */
  resize(): void {
    const width = this.columns();
    if (this.region !== null) this.rowsAbove = rowsAboveAfterResize(this.region, this.width, width);
    this.width = width;
  }

  /** Leave the last frame on screen, move below it and restore terminal modes. */
  close(): void {
    this.write(exitSequence(this.region));
  }
}
