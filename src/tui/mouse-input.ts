import type { RelayRunner } from '../app/run/runner.js';
import type { Role } from '../protocol/index.js';
import type { Compositor } from './compositor.js';
import type { CopyMode } from './copy-mode.js';
import type { Command } from './keys.js';
import { encodeMouse, hitPane, isPress, isWheel, type MouseEvent, wheelStep } from './mouse.js';
import type { Store } from './store.js';

export type MouseDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly compositor: Compositor;
  readonly run: (command: Command) => void;
  readonly copy: CopyMode;
};

/** Lines a wheel notch scrolls. */
export const WHEEL_LINES = 3;

/**
 * What the mouse does: a click on a pane focuses it; the wheel over a pane scrolls it (in copy mode,
 * which the wheel starts); a click in copy mode's pane moves its cursor. An agent that asked for the
 * mouse itself gets what happens inside its screen instead (focus still follows its clicks), in its
 * own coordinates and encoding — unless its pane is in copy mode. Over relevo's chrome, or under the
 * help or the history, the mouse does nothing.
 */
export function mouseRouter({ store, runner, compositor, run, copy }: MouseDeps): (e: MouseEvent) => void {
  const focus = (role: Role) => {
    if (store.state.focus !== role) run('focus');
  };
  return (e) => {
    if (store.state.overlay !== 'none') return;
    const hit = hitPane(compositor.view, e.x - 1, e.y - 1);
    if (hit === null) return;
    const pane = runner.agents[hit.role].pane;
    const copying = store.state.scroll !== null && store.state.focus === hit.role;
    const mode = pane.screen.mouse;
    if (mode.tracking !== 'none' && hit.inside && !copying) {
      const sent = encodeMouse(e, mode, hit.x, hit.y);
      if (sent !== null) pane.write(sent);
      if (isPress(e)) focus(hit.role);
      return;
    }
    if (isWheel(e)) {
      const step = wheelStep(e);
      if (step === 0) return;
      focus(hit.role);
      copy.scroll(step * WHEEL_LINES);
      return;
    }
    if (!isPress(e)) return;
    if (copying && hit.inside) copy.click(hit.y - 1, hit.x - 1);
    else focus(hit.role);
  };
}
