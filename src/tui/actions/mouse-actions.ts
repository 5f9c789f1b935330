import type { RelayRunner } from '../../app/run/runner.js';
import type { Role } from '../../protocol/index.js';
import type { Command } from '../input/keyboard.js';
import { encodeMouse, hitPane, isMotion, isPress, isWheel, type MouseEvent, wheelStep } from '../input/mouse.js';
import type { Point } from '../state/copy-text.js';
import type { Store } from '../state/store.js';
import type { Compositor } from '../view/compositor.js';
import type { CopyMode } from './copy-mode.js';

export type MouseDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly compositor: Compositor;
  readonly run: (command: Command) => void;
  readonly copy: CopyMode;
};

/** Lines a wheel notch scrolls. */
export const WHEEL_LINES = 3;

/** The left button (no wheel, no other button), pressed, dragged or let go. */
const leftButton = (e: MouseEvent): boolean => (e.code & 0xc3) === 0;

/**
 * What the mouse does, as in tmux: a click on a pane focuses it; a drag inside a pane selects in
 * copy mode and, let go, copies the selection (OSC 52) and leaves; the wheel scrolls the pane under
 * it (the focused one in copy mode, which scrolling back down leaves; the other one's view only,
 * the focus staying where it is); a click in copy mode's pane moves its cursor. An agent that
 * asked for the mouse itself gets what happens inside its screen instead (focus still follows its
 * clicks), in its own coordinates and encoding — unless its pane is in copy mode. Over relevo's
 * chrome, or under the help or the history, the mouse does nothing.
 */
export function mouseRouter({ store, runner, compositor, run, copy }: MouseDeps): (e: MouseEvent) => void {
  const focus = (role: Role) => {
    if (store.state.focus !== role) run('focus');
  };
  /** The left button went down inside this pane (relevo's to handle), at this buffer point; `dragged` once it moved. */
  let held: { readonly role: Role; readonly at: Point; dragged: boolean } | null = null;

  /** Motion with the left button down, and its release: wherever the pointer is, the cell is the pane's. */
  const drag = (e: MouseEvent, from: NonNullable<typeof held>) => {
    const box = compositor.view.panes[from.role];
    if (e.release) held = null;
    if (box === undefined || store.state.focus !== from.role || store.state.overlay !== 'none') return;
    if (e.release) {
      if (from.dragged) copy.dragEnd();
      return;
    }
    const { top, left, width, height } = box.inner;
    const shown = compositor.window(from.role);
    // One row past the view's top or bottom edge scrolls it a line.
    const row = Math.max(-1, Math.min(height, e.y - 1 - top));
    from.dragged = true;
    copy.drag(from.at, row + (row >= 0 && row < height ? shown.top : 0), Math.max(0, Math.min(width - 1, e.x - 1 - left)) + shown.left);
  };

  return (e) => {
    if (held !== null && !isWheel(e) && (e.release || (isMotion(e) && leftButton(e)))) return drag(e, held);
    if (store.state.overlay !== 'none') return;
    const hit = hitPane(compositor.view, e.x - 1, e.y - 1);
    if (hit === null) return;
    const pane = runner.agents[hit.role].pane;
    const copying = store.state.scroll !== null && store.state.focus === hit.role;
    const mode = pane.screen.mouse;
    if (mode.tracking !== 'none' && hit.inside && !copying) {
      // A cropped pane shows a window onto the agent's screen: the agent hears its own coordinates.
      const shown = compositor.window(hit.role);
      const sent = encodeMouse(e, mode, hit.x + shown.left, hit.y + shown.top);
      if (sent !== null) pane.write(sent);
      if (isPress(e)) focus(hit.role);
      return;
    }
    if (isWheel(e)) {
      const step = wheelStep(e);
      if (step === 0) return;
      if (store.state.focus === hit.role) copy.scroll(step * WHEEL_LINES);
      else copy.peek(hit.role, step * WHEEL_LINES);
      return;
    }
    if (!isPress(e)) return;
    const shown = compositor.window(hit.role);
    const [row, col] = [hit.y - 1 + shown.top, hit.x - 1 + shown.left];
    if (copying && hit.inside) copy.click(row, col);
    else focus(hit.role);
    if (hit.inside && leftButton(e)) held = { role: hit.role, at: { line: pane.screen.text.viewTop + row, col }, dragged: false };
  };
}
