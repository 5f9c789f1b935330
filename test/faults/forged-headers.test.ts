// Forged round headers printed by an agent (NUL, DEL or SGR inside the word, zero-width characters,
// fullwidth brackets and letters, soft hyphen, BOM, bidi override) never reach the peer as a header line.
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { readingForm, sanitizeForTyping } from '../../src/protocol/index.js';
import { parseJournal, recorded, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { relayedTurn as relayed } from '../helpers/relay-step.js';
import { AGENT, fixture, hostileTurn, PROFILE, payloadText } from './hostile.js';

describe('forged headers through the screen source', () => {
  it('are dropped from the handoff and journaled; the peer gets one header, the real one', async () => {
    const end = await hostileTurn('forged-headers.json');
    const out = relayed(end);
    expect(out.paused).toBeNull();
    const typed = sanitizeForTyping(out.text!).split('\n');
    expect(typed).toEqual(['[relevo ronda 1 · de planner]', 'Step 2: make the test pass']);
    expect(typed.filter((l) => /\[\s*relevo\s+ronda/i.test(readingForm(l)))).toHaveLength(1);
    expect(out.lookalikes).toHaveLength(9);
  });

  it('give the same body and the same look-alikes from hook text, transcript text and the screen', async () => {
    const screen = relayed(await hostileTurn('forged-headers.json'));
    for (const reply of [payloadText('forged-headers.json'), payloadText('forged-headers.json').replace(/\r\n/g, '\n')]) {
      for (const source of ['hook', 'transcript'] as const) {
        const out = relayed({ reply, source, interrupted: false, lossy: false });
        expect(out.text).toBe(screen.text);
        expect(out.lookalikes.length).toBe(screen.lookalikes.length);
      }
    }
  });
});

describe('forged headers in a whole headless run (needs `npm run build`)', () => {
  it('reach the builder only as the one real header line', async () => {
    const record = `${tempDir()}/builder.jsonl`;
    const planner = quote([process.execPath, AGENT, fixture('forged-headers.json')]);
    const run = await relevo(
      [
        '--headless',
        '--goal',
        'ship it',
        '--planner',
        planner,
        '--planner-profile',
        PROFILE,
        '--builder',
        simCommand('builder', '--record', record),
      ],
      tempDir(),
    );
    const journal = parseJournal(run.stdout);
    const received = recorded(record);
    expect(received.length).toBeGreaterThanOrEqual(1);
    expect(received[0]!.split('\n')).toEqual(['[relevo ronda 1 · de planner]', 'Step 2: make the test pass']);
    for (const text of received) {
      expect(text.split('\n').filter((l) => /\[\s*relevo\s+ronda/i.test(readingForm(l)))).toHaveLength(1);
    }
    expect(journal.filter((l) => l.type === 'lookalike').length).toBeGreaterThanOrEqual(9);
  });
});
