import { describe, expect, it } from 'vitest';
import {
  initialState,
  type JournalEntry,
  MAX_NOTE_CHARS,
  noteFor,
  noteRefusal,
  noteTarget,
  type RelayConfig,
  type RelayEvent,
  type RelayState,
  type Role,
  restoreState,
  step,
} from '../../src/protocol/index.js';
import { delivered, deliveries, ended, handoff, journal, machineConfig, type Run, runEvents, SHA } from '../helpers/machine.js';

const config: RelayConfig = machineConfig('es');
const run = (events: RelayEvent[], from = initialState(config), cfg = config): Run => runEvents(cfg, events, from);
const checkpoints = (effects: Run['effects']) => effects.flatMap((e) => (e.type === 'checkpoint' ? [e] : []));
const note = (to: Role, text: string): RelayEvent => ({ type: 'note', to, text });

/** The goal delivered: the planner works on it. */
const started = () => run([{ type: 'start', goal: 'G' }, delivered('planner')]);

describe("a person's note", () => {
  it('rides once with the next handoff to its agent, after the byte-exact body, under its label', () => {
    const s = started();
    const queued = run([note('builder', 'use the existing helpers')], s.state);
    expect(journal(queued.effects)).toEqual([{ type: 'note_queued', to: 'builder', text: 'use the existing helpers' }]);
    expect(noteFor(queued.state, 'builder')).toBe('use the existing helpers');
    expect(deliveries(queued.effects)).toEqual([]);

    const relayed = run([ended('planner', handoff('step 1\n    indented'))], queued.state);
    const [message] = deliveries(relayed.effects);
    expect(message).toMatchObject({ kind: 'handoff', to: 'builder', body: 'step 1\n    indented', note: 'use the existing helpers' });
    expect(message!.text).toBe('[relevo ronda 1 · de planner]\nstep 1\n    indented\n\n[nota de la persona]\nuse the existing helpers');
    // The checkpoint holds the note, and is written before the delivery.
    expect(relayed.effects.map((e) => e.type)).toEqual(['journal', 'checkpoint', 'deliver']);
    expect(checkpoints(relayed.effects)[0]!.message.note).toBe('use the existing helpers');
    // Taken: no longer queued, and the next handoff to the builder goes without it.
    expect(relayed.state.notes.builder).toBeNull();
    const acked = run([delivered('builder')], relayed.state);
    expect(journal(acked.effects)).toMatchObject([{ type: 'delivered', to: 'builder', note_chars: 24 }]);
    const next = run([ended('builder', handoff('report 1')), delivered('planner'), ended('planner', handoff('step 2'))], acked.state);
    expect(deliveries(next.effects).map((m) => m.text)).toEqual([
      '[relevo ronda 1 · de builder]\nreport 1',
      '[relevo ronda 2 · de planner]\nstep 2',
    ]);
  });

  it('is labelled in the run language', () => {
    const en = { ...config, lang: 'en' as const };
    const s = run([{ type: 'start', goal: 'G' }, delivered('planner'), note('builder', 'hi')], initialState(en), en);
    expect(deliveries(run([ended('planner', handoff('step'))], s.state, en).effects)[0]!.text).toBe(
      '[relevo ronda 1 · de planner]\nstep\n\n[note from the person]\nhi',
    );
  });

  it('joins a handoff that waits (paused): checkpointed anew with the note, replacing the one without', () => {
    const s = run([{ type: 'set-step', on: true }, ended('planner', handoff('step 1'))], started().state);
    expect(s.state.pause?.reason).toBe('step');
    const noted = run([note('builder', 'careful with the API')], s.state);
    const [cp] = checkpoints(noted.effects);
    expect(cp).toMatchObject({ supersedes: 1, message: { seq: 2, body: 'step 1', note: 'careful with the API' } });
    const twice = run([note('builder', 'and the docs')], noted.state);
    expect(checkpoints(twice.effects)[0]).toMatchObject({
      supersedes: 2,
      message: { seq: 3, note: 'careful with the API\n\nand the docs' },
    });
    // An edit of the body keeps the note.
    const edited = run([{ type: 'edit-pending', body: 'step 1, smaller' }], twice.state);
    expect(checkpoints(edited.effects)[0]!.message).toMatchObject({
      body: 'step 1, smaller',
      note: 'careful with the API\n\nand the docs',
    });
    const sent = run([{ type: 'resume' }], edited.state);
    expect(deliveries(sent.effects)[0]!.text).toBe(
      '[relevo ronda 1 · de planner]\nstep 1, smaller\n\n[nota de la persona]\ncareful with the API\n\nand the docs',
    );
  });

  it('stays with its handoff when the receiver exits and is started again', () => {
    const waiting = run(
      [{ type: 'set-step', on: true }, ended('planner', handoff('s')), note('builder', 'keep it small')],
      started().state,
    );
    const exited = run([{ type: 'resume' }, { type: 'agent-exited', role: 'builder', exitCode: 1 }], waiting.state);
    expect(exited.state.pause?.reason).toBe('agent_exited');
    const again = run([{ type: 'agent-restarted', role: 'builder' }], exited.state);
    const [message] = deliveries(again.effects);
    expect(message).toMatchObject({ seq: 2, note: 'keep it small' });
    expect(message!.text).toBe('[relevo ronda 1 · de planner]\ns\n\n[nota de la persona]\nkeep it small');
  });

  it('can be cancelled before it is sent, queued or inside a waiting handoff', () => {
    const queued = run([note('builder', 'x')], started().state);
    const cancelled = run([{ type: 'cancel-note', to: 'builder' }], queued.state);
    expect(journal(cancelled.effects)).toEqual([{ type: 'note_cancelled', to: 'builder', chars: 1 }]);
    expect(noteFor(cancelled.state, 'builder')).toBeNull();
    expect(deliveries(run([ended('planner', handoff('s'))], cancelled.state).effects)[0]!.text).toBe('[relevo ronda 1 · de planner]\ns');

    const waiting = run([{ type: 'set-step', on: true }, ended('planner', handoff('s')), note('builder', 'y')], started().state);
    const back = run([{ type: 'cancel-note', to: 'builder' }], waiting.state);
    expect(checkpoints(back.effects)[0]).toMatchObject({ supersedes: 2, message: { body: 's', seq: 3 } });
    expect(checkpoints(back.effects)[0]!.message.note).toBeUndefined();
    expect(noteFor(back.state, 'builder')).toBeNull();
    // Nothing to cancel: nothing happens.
    expect(run([{ type: 'cancel-note', to: 'planner' }], back.state).effects).toEqual([]);
  });

  it('goes by default to the agent the next handoff is for, and is refused before the goal, after done, empty or too long', () => {
    const s = started();
    expect(noteTarget(s.state)).toBe('builder');
    const atBuilder = run([ended('planner', handoff('s'))], s.state);
    expect(noteTarget(atBuilder.state)).toBe('planner'); // being typed to the builder: the next one is the planner's
    expect(noteTarget(run([delivered('builder')], atBuilder.state).state)).toBe('planner');
    expect(noteRefusal(initialState(config), 'planner', 'x')).toMatch(/no goal/);
    expect(noteRefusal(run([ended('planner', '<done>ok</done>')], s.state).state, 'builder', 'x')).toMatch(/done/);
    expect(noteRefusal(s.state, 'builder', '   ')).toMatch(/empty/);
    expect(noteRefusal(s.state, 'builder', 'x'.repeat(MAX_NOTE_CHARS + 1))).toMatch(/too long/);
    expect(run([note('builder', 'x'.repeat(MAX_NOTE_CHARS + 1))], s.state).effects).toEqual([]);
  });

  it('a note queued when relevo stopped is queued again after --resume; one inside a checkpoint rides with it', () => {
    let seq = 0;
    const stamp = (entry: JournalEntry) => ({ ...entry, seq: ++seq, ts: '2026-12-01T00:00:00.000Z' });
    const lines = [
      stamp({ type: 'goal', text: 'G' }),
      stamp({ type: 'note_queued', to: 'builder', text: 'one' }),
      stamp({ type: 'note_queued', to: 'builder', text: 'two' }),
      stamp({ type: 'note_queued', to: 'planner', text: 'gone' }),
      stamp({ type: 'note_cancelled', to: 'planner', chars: 4 }),
    ];
    const restored = restoreState(config, { lines, checkpoints: [], stale: null });
    expect(restored.ok && restored.state.notes).toEqual({ planner: null, builder: 'one\n\ntwo' });

    const taken = [
      ...lines,
      stamp({
        type: 'checkpoint',
        lane: 'planner',
        checkpoint_seq: 1,
        round: 1,
        to: 'builder',
        sha256: SHA,
        bytes: 1,
        lines: 1,
        note_chars: 8,
      }),
    ];
    const checkpoint = {
      schema_version: 1 as const,
      run_id: 'r1',
      seq: 1,
      round: 1,
      from: 'planner' as const,
      to: 'builder' as const,
      created_at: '2026-12-01T00:00:00.000Z',
      sha256: SHA,
      bytes: 1,
      lines: 1,
      note: 'one\n\ntwo',
      body: 's',
    };
    const again = restoreState(config, {
      lines: taken,
      checkpoints: [{ checkpoint, body: 's', offered: true, acked: false }],
      stale: null,
    });
    expect(again.ok && again.state.notes.builder).toBeNull();
    expect(again.ok && again.state.pending?.text).toBe('[relevo ronda 1 · de planner]\ns\n\n[nota de la persona]\none\n\ntwo');
  });

  it('every sequence of notes, cancels and turns delivers each note at most once and never loses one', () => {
    const alphabet: RelayEvent[] = [
      note('builder', 'N'),
      note('planner', 'M'),
      { type: 'cancel-note', to: 'builder' },
      ended('planner', handoff('p')),
      ended('builder', handoff('r')),
      delivered('builder'),
      delivered('planner'),
      { type: 'set-step', on: true },
      { type: 'resume' },
    ];
    const violations = new Set<string>();
    let carried = 0;
    /** How many notes a text holds (each note is one letter). */
    const count = (text: string | null | undefined) => text?.match(/[NM]/g)?.length ?? 0;
    /** `given`: notes queued and not cancelled on this path; `typed`: notes that reached an agent. */
    const walk = (state: RelayState, depth: number, given: number, typed: number) => {
      // A note given is queued, inside a waiting or travelling handoff, or typed: never lost, never twice.
      const held = count(state.pending?.note) + count(state.notes.planner) + count(state.notes.builder);
      if (given !== typed + held) violations.add(`given ${given}, typed ${typed}, held ${held}`);
      if (depth === 0) return;
      for (const event of alphabet) {
        const { state: next, effects } = step(config, state, event);
        let g = given;
        let t = typed;
        for (const e of effects) {
          if (e.type !== 'journal') continue;
          if (e.entry.type === 'note_queued') g++;
          if (e.entry.type === 'note_cancelled') g -= count(state.notes[e.entry.to] ?? state.pending?.note);
          if (e.entry.type === 'delivered' && e.entry.note_chars !== undefined) {
            t += count(state.pending?.note);
            carried++;
          }
        }
        walk(next, depth - 1, g, t);
      }
    };
    walk(started().state, 6, 0, 0);
    expect([...violations]).toEqual([]);
    expect(carried).toBeGreaterThan(0);
  });
});
