import { compareVersions, parseVersion } from './release.js';
import type { ProfileData } from './schemas/profile.js';

export { compareVersions, parseVersion } from './release.js';

/**
 * Agent CLI versions: reading one from what `--version` prints, comparing releases, the range a
 * profile was tested with, and the delivery settings a release calls for. Pure.
 */

/** The version in a CLI's `--version` output: the first group of `pattern` (per line), if it is a release number. */
export function versionIn(output: string, pattern: string): string | null {
  const m = new RegExp(pattern, 'mu').exec(output);
  const found = m?.[1] ?? m?.[0];
  return found !== undefined && parseVersion(found) !== null ? found : null;
}

export type TestedRange = { readonly oldest: string; readonly newest: string };

/** The oldest and newest of the versions a profile was tested with. */
export function testedRange(tested: readonly string[]): TestedRange {
  const sorted = [...tested].sort(compareVersions);
  return { oldest: sorted[0]!, newest: sorted.at(-1)! };
}

/** Where a release stands against the tested range. */
export type VersionVerdict = 'tested' | 'older' | 'newer';

/** What relevo learned of an agent CLI's release: the version and where it stands against the tested range, or why it could not tell. */
export type CliVersion =
  | { readonly status: 'found'; readonly version: string; readonly verdict: VersionVerdict; readonly range: string }
  | { readonly status: 'unknown'; readonly range: string; readonly detail: string };

export function versionVerdict(version: string, tested: readonly string[]): VersionVerdict {
  const { oldest, newest } = testedRange(tested);
  if (compareVersions(version, oldest) < 0) return 'older';
  if (compareVersions(version, newest) > 0) return 'newer';
  return 'tested';
}

/** `2.1.197 – 2.1.332` (one version alone when the range is one release). */
export function rangeText(tested: readonly string[]): string {
  const { oldest, newest } = testedRange(tested);
  return oldest === newest ? oldest : `${oldest} – ${newest}`;
}

type Since<T> = { readonly version: string } & { readonly [K in keyof T]?: T[K] | undefined };

/**
 * Settings for one release: the base, then every `since` entry whose version is at or below it,
 * oldest first. An unknown release (null) gets them all: people run the newest CLI.
 */
export function settingsFor<T extends object>(base: T, since: readonly Since<T>[], version: string | null): T {
  let out: T = { ...base };
  for (const entry of since) {
    if (version !== null && compareVersions(entry.version, version) > 0) continue;
    const { version: _from, ...changes } = entry;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    out = { ...out, ...defined };
  }
  return out;
}

/** A profile as it applies to one release of its CLI (null: unknown, taken as the newest). */
export function profileForVersion(data: ProfileData, version: string | null): ProfileData {
  const { since, ...base } = data.deliver;
  return { ...data, deliver: { ...settingsFor(base, since, version), since: [] } };
}
