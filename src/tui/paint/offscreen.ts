import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { type Instance, render } from 'ink';
import type { ReactElement } from 'react';
import { Emitter } from '../../pty/emitter.js';

/** A stdout Ink can render to that only keeps the last frame. */
class FrameSink extends EventEmitter {
  columns: number;
  rows = 1000;
  readonly isTTY = false;
  constructor(
    width: number,
    private readonly onWrite: (frame: string) => void,
  ) {
    super();
    this.columns = width;
  }
  write(data: string): boolean {
    this.onWrite(data);
    return true;
  }
}

/**
 * Ink rendering off screen: Ink lays out and styles relevo's chrome, and each frame comes back as
 * lines (with SGR) for the compositor to paint where they belong. Ink never writes to the terminal,
 * never reads stdin, and re-renders only when the tree changes (debug mode: one write per render).
 */
export class OffscreenInk {
  readonly #sink: FrameSink;
  readonly #instance: Instance;
  readonly #onFrame = new Emitter<readonly string[]>();
  readonly onFrame = this.#onFrame.event;
  #lines: readonly string[] = [];

  constructor(node: ReactElement, width: number) {
    this.#sink = new FrameSink(width, (frame) => {
      this.#lines = frame.split('\n');
      this.#onFrame.fire(this.#lines);
    });
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    this.#instance = render(node, {
      stdout: this.#sink as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: new PassThrough() as unknown as NodeJS.WriteStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  }

  get lines(): readonly string[] {
    return this.#lines;
  }

  /**
   * Renders `node` again, laid out `width` columns wide when a width is given. The tree must carry
   * its width in its props too: Ink lays out again only when the tree changes, and it is told
   * nothing of a resize (under CI it does not listen for one at all).
   */
  rerender(node: ReactElement, width = this.#sink.columns): void {
    this.#sink.columns = width;
    this.#instance.rerender(node);
  }

  dispose(): void {
    this.#instance.unmount();
    this.#onFrame.dispose();
  }
}
