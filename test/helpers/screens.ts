import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseScreenFile, type ScreenFile } from '../../src/pty/screen-file.js';

const DIR = new URL('../fixtures/screens/', import.meta.url);

/** A captured screen of a real CLI: `<agent>/<release>/<state>--<what>.txt`, read as `relevo-tui explain` reads it. */
export type ScreenFixture = ScreenFile & {
  agent: string;
  release: string;
  file: string;
  path: string;
  state: string;
  lines: string[];
};

/** Every screen fixture, one folder per agent (named as its profile) and release. */
export function screenFixtures(): ScreenFixture[] {
  return readdirSync(DIR).flatMap((agent) =>
    readdirSync(new URL(`${agent}/`, DIR)).flatMap((release) =>
      readdirSync(new URL(`${agent}/${release}/`, DIR)).map((file) => {
        const path = fileURLToPath(new URL(`${agent}/${release}/${file}`, DIR));
        const parsed = parseScreenFile(readFileSync(path, 'utf8'));
        return { ...parsed, agent, release, file, path, state: file.split('--')[0]!, lines: [...parsed.snapshot.viewport] };
      }),
    ),
  );
}

/** One fixture by agent, release and file name. */
export const screenFixture = (agent: string, release: string, file: string): ScreenFixture =>
  screenFixtures().find((x) => x.agent === agent && x.release === release && x.file === file)!;
