import type { Snapshot } from './screen.js';

/**
 * A screen kept as text, the shape of test/fixtures/screens: an optional header (`title: …`,
 * `osc 7501: …`, `rule: …` naming the rule that must decide it), a `---` line, then the screen's
 * rows. A file with no such header is all rows (a `tmux capture-pane -p`).
 */
export type ScreenFile = { readonly snapshot: Snapshot; readonly rule: string | null };

const HEADER_LINE = /^(?:title|rule|osc \d+): ?/;

export function parseScreenFile(text: string): ScreenFile {
  const unix = text.replace(/\r\n/g, '\n');
  const [head = '', ...rest] = unix.split('\n---\n');
  const headed = rest.length > 0 && head.split('\n').every((l) => l === '' || HEADER_LINE.test(l));
  const body = headed ? rest.join('\n---\n') : unix;
  const osc = new Map<number, string>();
  let title = '';
  let rule: string | null = null;
  for (const line of headed ? head.split('\n') : []) {
    const [, key = '', value = ''] = /^([^:]+): ?(.*)$/.exec(line) ?? [];
    if (key === 'title') title = value;
    else if (key === 'rule') rule = value;
    else if (key.startsWith('osc ')) osc.set(Number(key.slice(4)), value);
  }
  return { snapshot: { viewport: body.replace(/\n$/, '').split('\n'), title, osc }, rule };
}
