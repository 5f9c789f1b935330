/** Profiles for tests: a shipped one with a change, written to a file for `--planner-profile` / `--builder-profile`. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A shipped profile (`profiles/<name>.toml`) with `edit` applied to its TOML text, as a file; `id` renames it. */
export function editedProfile(name: string, edit: (toml: string) => string = (t) => t, id?: string): string {
  let toml = edit(readFileSync(new URL(`../../profiles/${name}.toml`, import.meta.url), 'utf8'));
  if (id !== undefined) toml = toml.replace(`id = "${name}"`, `id = "${id}"`);
  const file = join(mkdtempSync(join(tmpdir(), 'relevo-profiles-')), `${id ?? name}.toml`);
  writeFileSync(file, toml);
  return file;
}

/** Removes whole sections (`[hook]`, `[transcript]`, …) from a profile's TOML text. */
export const withoutSections =
  (...sections: readonly string[]) =>
  (toml: string): string =>
    sections.reduce((t, section) => t.replace(new RegExp(`\\n\\[${section}\\]\\n(?:[a-z_]+ = .*\\n)+`), '\n'), toml);

/** Appends TOML lines (a new section) to a profile's text. */
export const appended =
  (lines: string) =>
  (toml: string): string =>
    `${toml}\n${lines}\n`;
