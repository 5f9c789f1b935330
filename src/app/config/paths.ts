import { fileURLToPath } from 'node:url';

/** Where relevo-tui is installed: the folder holding package.json, bin/ and profiles/ (from src/ or dist/ alike). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The command itself, run again by agents for `hook` and `sim-agent`. */
export const BIN = `${PACKAGE_ROOT}bin/relevo-tui.js`;
/** The profiles shipped with relevo-tui. */
export const PROFILES_DIR = `${PACKAGE_ROOT}profiles/`;
