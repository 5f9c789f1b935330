/**
 * The painter renders again only the rows xterm says changed (Screen.takeDamage): whatever the
 * program does — scrolls, scroll regions, inserted and deleted lines, erases, the alternate screen,
 * wide characters, a resize, a view scrolled back, copy mode's reverse video — the real terminal
 * shows, after each paint, what it shows from a painter that renders every row.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Screen, type Span } from '../../src/pty/screen.js';
import { PanePainter, type Rect } from '../../src/tui/paint/painter.js';
import { programOutput as output, rng } from '../helpers/random-output.js';

const screens: Screen[] = [];
const screen = (cols: number, rows: number, scrollback?: number) => {
  const s = new Screen({ cols, rows, ...(scrollback === undefined ? {} : { scrollback }) });
  screens.push(s);
  return s;
};
afterEach(() => {
  vi.restoreAllMocks();
  for (const s of screens.splice(0)) s.dispose();
});

describe('PanePainter: rows xterm did not touch', () => {
  it('the real terminal shows what a painter rendering every row shows, after every paint, whatever the program wrote', async () => {
    const r = rng(16);
    const [real, every] = [screen(40, 20), screen(40, 20)];
    const pane = screen(20, 8, 0);
    let rect: Rect = { top: 1, left: 2, width: 20, height: 8 };
    let inverted: Span[] | undefined;
    const invert = (row: number) => (row === 2 ? inverted : undefined);
    const frames: string[] = [];
    const full: string[] = [];
    const painter = new PanePainter({ write: (s: string) => frames.push(s) }, pane, rect, { invert });
    // The reference: forgets what it painted before every paint, so it renders every row.
    const reference = new PanePainter({ write: (s: string) => full.push(s) }, pane, rect, { invert });
    for (let step = 0; step < 600; step++) {
      const what = r(20);
      if (what === 0) {
        // A rectangle shorter than the screen too (a mirrored pane): the painter shows its lower rows.
        const height = 5 + r(6);
        pane.resize(20, height);
        rect = { ...rect, height: height - r(3) };
        painter.resize(rect);
        reference.resize(rect);
      } else if (what === 4)
        pane.resize(18 + r(5), pane.rows); // resized elsewhere (a mirrored pane): rows rewrap
      else if (what === 1) pane.scrollView(-1 - r(3));
      else if (what === 2) pane.scrollViewToBottom();
      else if (what === 3) inverted = inverted ? undefined : [{ from: 1, to: 6 }];
      else await pane.write(output(r, rect.height));
      painter.paint();
      reference.invalidate();
      reference.paint();
      await real.write(frames.splice(0).join(''));
      await every.write(full.splice(0).join(''));
      for (let y = 0; y < rect.height; y++)
        expect(real.styledRow(rect.top + y, rect.width, rect.left), `step ${step}, row ${y}`).toBe(
          every.styledRow(rect.top + y, rect.width, rect.left),
        );
    }
    painter.dispose();
    reference.dispose();
  });

  it('renders again only the row a keystroke echo changed', async () => {
    const pane = screen(30, 10);
    await pane.write(`${'a prompt line\r\n'.repeat(9)}> `);
    const painter = new PanePainter({ write: () => true }, pane, { top: 0, left: 0, width: 30, height: 10 });
    painter.paint();
    const rendered = vi.spyOn(pane, 'styledRow');
    await pane.write('Q');
    expect(painter.paint()).toBe(true);
    expect(rendered.mock.calls.map(([y]) => y)).toEqual([9]);
  });
});
