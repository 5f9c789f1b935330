import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { columns } from '../../src/tui/paint/width.js';
import { bandParts, roundsBar } from '../../src/tui/view/band.js';
import StatusBand from '../../src/tui/view/components/StatusBand.js';
import { bandInfo } from '../helpers/tui-state.js';

const info = bandInfo();

describe('status band', () => {
  it('shows the rounds as a ten-cell bar', () => {
    expect(roundsBar(3, 10)).toBe('▰▰▰▱▱▱▱▱▱▱ 3/10');
    expect(roundsBar(0, 10)).toBe('▱▱▱▱▱▱▱▱▱▱ 0/10');
    expect(roundsBar(13, 20)).toBe('▰▰▰▰▰▰▰▱▱▱ 13/20');
    expect(roundsBar(11, 10)).toBe('▰▰▰▰▰▰▰▰▰▰ 11/10');
  });

  it('says who has the turn and the run state, on one line', () => {
    const { lastFrame } = render(<StatusBand info={info} width={120} />);
    expect(lastFrame()).toBe('relevo · planner: claude ○ idle ▸ builder: codex ● working · ▰▰▰▱▱▱▱▱▱▱ 3/10 · turn: builder · running');
    const paused = render(<StatusBand info={{ ...info, phase: 'paused', pause: 'max_rounds', turn: null }} width={120} />);
    expect(paused.lastFrame()).toContain('paused: max_rounds');
    const stale = render(<StatusBand info={{ ...info, stale: true }} width={120} />);
    expect(stale.lastFrame()).toMatch(/STALE$/);
  });

  it('shortens gracefully on narrow terminals, keeping both agents’ states and the run state', () => {
    expect(bandParts(info, 90).join(' · ')).toBe('relevo · planner ○ idle ▸ builder ● working · ▰▰▰▱▱▱▱▱▱▱ 3/10 · turn: builder · running');
    expect(bandParts(info, 80).join(' · ')).toBe('relevo · planner ○ idle ▸ builder ● working · ▰▰▰▱▱▱▱▱▱▱ 3/10 · running');
    expect(bandParts(info, 60).join(' · ')).toBe('relevo · planner ○ idle ▸ builder ● working · 3/10 · running');
    expect(bandParts(info, 50).join(' · ')).toBe('relevo · P ○ idle ▸ B ● working · 3/10 · running');
    expect(bandParts(info, 30).join(' · ')).toBe('P ○ ▸ B ● · 3/10 · running');
    expect(bandParts(info, 14).join(' · ')).toBe('3/10 · running');
    for (const width of [120, 80, 70, 50, 40, 36, 20, 14, 8]) {
      expect(render(<StatusBand info={info} width={width} />).lastFrame()!.length).toBeLessThanOrEqual(width);
    }
  });

  it('keeps what needs the person (a held delivery, a stall) to the last, at any width', () => {
    const note = 'builder: your draft holds round 2 — send it or clear it';
    const held = { ...info, turn: null, notes: [note] };
    expect(bandParts(held, 160).join(' · ')).toBe(
      `relevo · planner: claude ○ idle ▸ builder: codex ● working · ▰▰▰▱▱▱▱▱▱▱ 3/10 · relaying · running · ${note}`,
    );
    expect(bandParts(held, 100).join(' · ')).toBe(`P ○ idle ▸ B ● working · 3/10 · running · ${note}`);
    expect(bandParts(held, 80).join(' · ')).toBe('P ○ idle ▸ B ● working · 3/10 · running · builder: your draft holds round 2');
    expect(bandParts(held, 60).join(' · ')).toBe('P ○ ▸ B ● · 3/10 · running · builder: your draft holds roun…');
    for (const width of [160, 80, 60, 30])
      expect(render(<StatusBand info={held} width={width} />).lastFrame()!.length).toBeLessThanOrEqual(width);
  });

  it('keeps both agents’ states at every width from 30 to 250 columns, with notes or without: a note is shortened or cut, never the states', () => {
    const held = 'builder: your draft holds round 2 — send it or clear it';
    const stalled = 'planner: stalled — busy 5m 0s with no turn end';
    const marks = /^(relevo · )?(planner(: claude)?|P) ○( idle)? ▸ (builder(: codex)?|B) ●( working)?( · |$)/;
    for (const notes of [[], [held], [stalled], [held, stalled], ['note → planner']]) {
      const shown = { ...info, notes };
      for (let width = 30; width <= 250; width++) {
        const band = bandParts(shown, width).join(' · ');
        expect(band, `${width} columns, notes ${JSON.stringify(notes)}`).toMatch(marks);
        expect(columns(band)).toBeLessThanOrEqual(width);
        // The band as drawn is those parts (rendered at every ninth width: the parts are checked at all).
        if (width % 9 === 3) expect(render(<StatusBand info={shown} width={width} />).lastFrame()).toBe(band);
        // What needs the person keeps at least its first words.
        if (notes.length > 0) expect(band).toContain(notes[0]!.slice(0, 12));
      }
    }
  });
});
