/**
 * A LocalPane reads its program's UTF-8 as a stream: a character whose bytes come in two reads of
 * the pseudo-terminal is one character on the screen and in the output history, not two U+FFFD.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LocalPane } from '../../src/pty/pane.js';
import { tempDir } from '../helpers/cli.js';

const panes: LocalPane[] = [];
afterAll(async () => {
  for (const pane of panes) await pane.kill(200);
});

// Writes "a" and the first byte of "é", then — only once a key came, so the pane read that byte alone — the rest.
const PROGRAM = `
process.stdin.setRawMode(true);
process.stdout.write(Buffer.from([0x61, 0xc3]));
process.stdin.once('data', () => {
  process.stdout.write(Buffer.concat([Buffer.from([0xa9]), Buffer.from(' 日本 ✅ done\\r\\n')]));
  process.exit(0);
});
`;

describe('LocalPane: UTF-8 split between reads', () => {
  it('shows and logs the character whole', async () => {
    const pane = new LocalPane({
      argv: [process.execPath, '-e', PROGRAM],
      cwd: tempDir(),
      env: process.env as Record<string, string>,
      cols: 40,
      rows: 5,
    });
    panes.push(pane);
    const exited = new Promise<void>((resolve) => pane.onExit(() => resolve()));
    // "a" and the lead byte were read (and parsed): the program now waits for a key.
    await new Promise<void>((resolve) => {
      const off = pane.onUpdate(() => {
        off.dispose();
        resolve();
      });
    });
    pane.write('k');
    await exited;
    expect(pane.screen.snapshot().viewport[0]).toBe('aé 日本 ✅ done');
    expect(pane.history.textSince(0)).toContain('aé 日本 ✅ done');
    expect(pane.history.textSince(0)).not.toContain('\ufffd');
  });
});
