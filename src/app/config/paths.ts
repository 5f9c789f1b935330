import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding relevo-tui's package.json, bin/ and profiles/: the nearest one above this
 * module, which may sit in src/app/config/, dist/app/config/ or a chunk of the bundle in dist/bundle/.
 */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'profiles'))) return `${dir}/`;
    if (dirname(dir) === dir) throw new Error(`relevo-tui's package.json and profiles/ are not above ${from}`);
  }
}

/** Where relevo-tui is installed. */
export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
/** The command itself, run again by agents for `hook` and `sim-agent`. */
export const BIN = `${PACKAGE_ROOT}bin/relevo-tui.js`;
/** The profiles shipped with relevo-tui. */
export const PROFILES_DIR = `${PACKAGE_ROOT}profiles/`;
