/** How a relay whose agents' host cannot be reached is shown: in the band, in its dashboard row. Pure. */

/** A host out of reach: its name, and when the next look at it is due (ms since the epoch; null while one is under way). */
export type HostOutOfReach = { readonly host: string; readonly retryAt: number | null };

/** The host a pane's `where` names (`tmux %3 on me@box` → `me@box`), or null for a pane of this machine. */
export const hostOfPane = (where: string): string | null => / on (\S+)$/.exec(where)?.[1] ?? null;

/** `unreachable: box — retrying in 4 s`, counting down to the next look (`retrying now` once it is due). */
export function unreachableText(out: HostOutOfReach, now: number): string {
  const seconds = out.retryAt === null ? 0 : Math.ceil((out.retryAt - now) / 1000);
  return `unreachable: ${out.host} — ${seconds > 0 ? `retrying in ${seconds} s` : 'retrying now'}`;
}
