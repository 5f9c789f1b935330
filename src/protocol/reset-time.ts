/**
 * When a usage limit resets, read from what an agent CLI prints: `resets 3pm`, `resets at 15:00
 * (Europe/Madrid)`, `try again in 5 minutes`, `in 2h 10m`, `retry after 30s`, an ISO time. Epoch ms,
 * or null when the text says nothing this understands. A clock time already past today is tomorrow's.
 */
export function resetTime(text: string, now: number): number | null {
  const iso = /\b(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))/.exec(text);
  if (iso) {
    const at = Date.parse(iso[1]!);
    if (Number.isFinite(at)) return at;
  }
  const span = durationMs(text);
  if (span !== null) return now + span;
  return clockTime(text, now);
}

const UNITS: Readonly<Record<string, number>> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** `in 5 minutes`, `in 2h 10m`, `after 30s`, `1 day 3 hours`: a span after the word `in`/`after` (or a bare span). */
function durationMs(text: string): number | null {
  const part = /(\d+(?:\.\d+)?)\s*(d(?:ays?)?|h(?:ours?|rs?)?|m(?:in(?:ute)?s?)?|s(?:ec(?:ond)?s?)?)\b/giy;
  const start = /\b(?:in|after)\s+(?=\d)/i.exec(text);
  const from = start ? start.index + start[0].length : text.search(/\d+(?:\.\d+)?\s*(?:d|h|m|s)[a-z]*\b(?![:.]\d)/i);
  if (from < 0) return null;
  let total = 0;
  let found = false;
  part.lastIndex = from;
  for (let m = part.exec(text); m !== null; m = part.exec(text)) {
    total += Number(m[1]) * UNITS[m[2]![0]!.toLowerCase()]!;
    found = true;
    // The next part may follow after spaces, a comma or `and`.
    const gap = /\s*(?:,|and)?\s*/y;
    gap.lastIndex = part.lastIndex;
    gap.exec(text);
    part.lastIndex = gap.lastIndex;
  }
  return found ? Math.round(total) : null;
}

/** `3pm`, `3:30 pm`, `15:00`, with an optional `(Area/City)` zone; else the local zone. */
function clockTime(text: string, now: number): number | null {
  const m = /\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\b(?:\s*\(([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)\))?/i.exec(text.replace(/\bat\s+/i, ''));
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  const half = m[3]?.toLowerCase();
  if (half !== undefined && (hour < 1 || hour > 12)) return null;
  if (half === 'pm' && hour < 12) hour += 12;
  if (half === 'am' && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return null;
  const offset = zoneOffset(m[4], now);
  if (offset === undefined) return null;
  // Wall-clock time in the zone, today; tomorrow when that is already past.
  const wall = new Date(now + offset);
  const today = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), hour, minute) - offset;
  return today > now ? today : today + 86_400_000;
}

/** The zone's offset from UTC at `now` in ms (the local zone when none is named), undefined for an unknown zone. */
function zoneOffset(zone: string | undefined, now: number): number | undefined {
  if (zone === undefined) return -new Date(now).getTimezoneOffset() * 60_000;
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(now);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return wall - Math.floor(now / 1000) * 1000;
  } catch {
    return undefined;
  }
}
