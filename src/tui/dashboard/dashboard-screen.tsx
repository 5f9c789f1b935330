import { WholeScreen, type WholeTerminal } from '../paint/whole-screen.js';
import Dashboard from './Dashboard.js';
import type { DashboardView } from './table.js';

/** The dashboard on the whole terminal, laid out at its size each time it is shown (see WholeScreen). */
export class DashboardScreen extends WholeScreen<DashboardView> {
  constructor(term: WholeTerminal, view: DashboardView, options: { readonly plain: boolean }) {
    super(term, view, (v, cols, rows) => <Dashboard view={v} width={cols} height={rows} />, options.plain);
  }
}
