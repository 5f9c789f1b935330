import { describe, expect, it } from 'vitest';
import { recordedBackend } from '../../src/app/run/run-where.js';
import type { JournalLine } from '../../src/protocol/index.js';

type Started = Extract<JournalLine, { type: 'run_started' }>;
const started = (planner: string, builder: string, over: Partial<Started> = {}): Started =>
  ({
    type: 'run_started',
    seq: 1,
    ts: '2026-12-06T20:00:00Z',
    run_id: 'r',
    version: '0.1.0',
    nonce: 'n',
    cwd: '/x',
    max_rounds: 10,
    lang: 'en',
    planner: { command: ['relevo-tui'], profile: 'sim', pane: planner },
    builder: { command: ['relevo-tui'], profile: 'sim', pane: builder },
    ...over,
  }) as Started;

describe('where a resumed run finds its agents', () => {
  it('a host relay: its panes by id on its host, as the journal named them', () => {
    const worktree = { branch: 'relevo/a', path: '/root/.relevo/worktrees/shop/a', base: 'main', host: 'me@box' };
    expect(recordedBackend(started('tmux %3 on me@box', 'tmux %4 on me@box', { worktree, tmux_socket: 'relevo-me' }))).toEqual({
      kind: 'host',
      destination: 'me@box',
      socket: 'relevo-me',
      panes: { planner: '%3', builder: '%4' },
    });
  });

  it('a host relay resumed, then an agent restarted: the panes the journal names last', () => {
    const worktree = { branch: 'relevo/a', path: '/root/.relevo/worktrees/shop/a', base: 'main', host: 'me@box' };
    const first = started('tmux %3 on me@box', 'tmux %4 on me@box', { worktree, tmux_socket: 'relevo-me' });
    const agent = (pane: string) => ({ command: ['relevo-tui'], profile: 'sim', pane });
    const resumed = {
      type: 'run_resumed',
      seq: 5,
      ts: first.ts,
      version: '0.1.0',
      planner: agent('tmux %0 on me@box'),
      builder: agent('tmux %1 on me@box'),
    };
    const restarted = { type: 'agent_restarted', seq: 9, ts: first.ts, role: 'builder', pane: 'tmux %2 on me@box' };
    const lines = [first, resumed, restarted] as JournalLine[];
    expect(recordedBackend(first, lines)).toMatchObject({ kind: 'host', panes: { planner: '%0', builder: '%2' } });
    expect(recordedBackend(first, lines.slice(0, 2))).toMatchObject({ kind: 'host', panes: { planner: '%0', builder: '%1' } });
    expect(recordedBackend(first)).toMatchObject({ kind: 'host', panes: { planner: '%3', builder: '%4' } });
  });

  it('local tmux panes, Herdr panes, and relevo’s own terminals', () => {
    expect(recordedBackend(started('tmux %1', 'tmux %2'))).toEqual({ kind: 'tmux', socket: null, panes: { planner: '%1', builder: '%2' } });
    expect(recordedBackend(started('herdr w1:p1', 'herdr w1:p2'))).toEqual({
      kind: 'herdr',
      panes: { planner: 'w1:p1', builder: 'w1:p2' },
    });
    expect(recordedBackend(started('pty 123', 'pty 124'))).toEqual({ kind: 'local' });
  });
});
