/**
 * NO_COLOR (no-color.org): relevo's chrome keeps its weights (bold, dim, inverse) and drops its
 * colours. Applied to what relevo paints itself, never to an agent's screen.
 */

/** SGR parameters that set a colour; 38, 48 and 58 take the colour's own parameters after them. */
const isColor = (n: number) => (n >= 30 && n <= 39) || (n >= 40 && n <= 49) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) || n === 59;
const EXTENDED = new Set([38, 48, 58]);

/** The parameters of one SGR sequence without its colours. */
function keepWeights(params: string): string | null {
  if (params === '') return '';
  const parts = params.split(/[;:]/).map(Number);
  const kept: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const n = parts[i]!;
    if (EXTENDED.has(n)) {
      // 38;5;N or 38;2;R;G;B: the colour's parameters go with it.
      i += parts[i + 1] === 5 ? 2 : parts[i + 1] === 2 ? 4 : 0;
      continue;
    }
    if (!isColor(n)) kept.push(n);
  }
  return kept.length === 0 ? null : kept.join(';');
}

/** `text` with every colour of its SGR sequences removed (a sequence left empty goes too). */
export function withoutColor(text: string): string {
  return text.replace(/\x1b\[([0-9;:]*)m/g, (_, params: string) => {
    const kept = keepWeights(params);
    return kept === null ? '' : `\x1b[${kept}m`;
  });
}

/** NO_COLOR set to anything but the empty string turns colour off. */
export const noColor = (env: NodeJS.ProcessEnv): boolean => (env.NO_COLOR ?? '') !== '';
