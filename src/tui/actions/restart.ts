import { self } from '../../app/config/self.js';
import type { RelayRunner } from '../../app/run/runner.js';
import { ROLES, type Role } from '../../protocol/index.js';
import type { TuiState } from '../state/store.js';
import type { Toaster } from '../state/toaster.js';

type Notes = Readonly<Record<Role, string | null>>;

/** The band's notes with each exited agent named and the key that starts it again (one note for both), in place of its other note. */
export function withExited(notes: Notes, agents: TuiState['agents'], prefix: string): Notes {
  const dead = ROLES.filter((role) => agents[role].state === 'exited');
  if (dead.length === 2) return { planner: `planner and builder exited: ${prefix} r starts them again`, builder: null };
  const note = (role: Role) => (dead.includes(role) ? `${role} exited: ${prefix} r starts it again` : notes[role]);
  return { planner: note('planner'), builder: note('builder') };
}

/**
 * `C-] r` while the relay is paused because an agent exited: every exited agent is started again
 * with its command and launch flags (the one whose exit paused the relay last, so the relay goes on
 * once both run), and the relay sends it what it needs. An agent in a pane relevo does not own
 * (tmux, Herdr) cannot be started from here: one toast says what to do.
 */
export async function restartExited(runner: RelayRunner, toast: Toaster, prefix: string): Promise<void> {
  const paused = runner.state.pause?.role;
  const dead = ROLES.filter((role) => runner.agents[role].pane.exited !== null);
  if (dead.length === 0) {
    runner.dispatch({ type: 'resume' });
    return;
  }
  const order: Role[] = [...dead.filter((role) => role !== paused), ...dead.filter((role) => role === paused)];
  for (const role of order) {
    const pane = runner.agents[role].pane;
    if (!runner.restartable) {
      toast(
        `the ${role} ran in ${pane.where}: relevo cannot start it there; start it in that pane, quit (${prefix} q), then ${self()} --resume`,
        'warn',
      );
      return;
    }
  }
  for (const role of order) {
    toast(`restarting the ${role}: ${runner.spec(role).argv.join(' ')}`);
    const restarted = await runner.restartAgent(role);
    if (!restarted.ok && restarted.why === 'not_owned')
      toast(`the ${role} ran in ${restarted.where}: relevo cannot start it there`, 'warn');
  }
}
