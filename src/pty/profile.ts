import type { ProfileData, ReplyLayout } from '../protocol/index.js';
import { type CompiledRule, compileRules } from './detect.js';

/** A validated profile with its patterns compiled, ready for a pane. */
export type Profile = {
  readonly data: ProfileData;
  readonly rules: readonly CompiledRule[];
  readonly layout: ReplyLayout;
  /** What the input line shows when nothing is typed (a placeholder), if anything. */
  readonly emptyInput: RegExp | null;
  /** What the input line shows for a paste it folded (`deliver.folded_paste`), if anything. */
  readonly foldedPaste?: RegExp | null;
};

const line = (source: string): RegExp => new RegExp(source, 'u');

/** A terminal of `cols`×`rows`, never smaller than the CLI needs (its profile's `screen.min_cols` × `min_rows`). */
export function agentTerminal(profile: Profile, cols: number, rows: number): { readonly cols: number; readonly rows: number } {
  const { min_cols, min_rows } = profile.data.screen;
  return { cols: Math.max(cols, min_cols), rows: Math.max(rows, min_rows) };
}

export function compileProfile(data: ProfileData): Profile {
  const r = data.reply;
  return {
    data,
    rules: compileRules(data.detect.rules),
    layout: {
      gutter: r.gutter,
      indent: r.indent,
      echo: r.echo === undefined ? undefined : line(r.echo),
      prompt: line(r.prompt),
      chrome: r.chrome.map(line),
      drop: r.drop.map(line),
      interrupted: r.interrupted.map(line),
    },
    emptyInput: r.empty_input === undefined ? null : line(r.empty_input),
    foldedPaste: data.deliver.folded_paste === undefined ? null : line(data.deliver.folded_paste),
  };
}
