import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live processes whose command line contains `text` (Linux /proc): agents left behind. */
export function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.replace(/\0/g, ' ').includes(text)) found.push(Number(name));
  }
  return found;
}
