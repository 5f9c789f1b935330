/**
 * zod as the flags, relevo.toml and the agent choice check them: zod/mini, whose functions a bundle
 * keeps only as used. Before the TUI's first frame that is zod's core and a few checks (≈ 66 KB
 * bundled), where the classic API brought ≈ 130 KB. Its messages are zod's own English ones, as
 * the classic API sets them.
 *
 * `jitless`, for every zod schema in the process (the setting is zod's core's, shared with the
 * classic API): zod would otherwise compile each object schema it parses into a function of its
 * own (`new Function`), ≈ 130 KB of generated source and its code kept for the process's life, to
 * speed up parses that relevo does a few at a time (flags, a journal line, a hook's report).
 */

import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config({ ...en(), jitless: true });

export { z };
