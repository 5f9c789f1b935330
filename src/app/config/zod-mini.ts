/**
 * zod as the flags, relevo.toml and the agent choice check them: zod/mini, whose functions a bundle
 * keeps only as used (less of zod before the first frame), with zod's English messages. `jitless`
 * for every schema in the process: relevo parses a few values at a time, not worth generated code
 * kept for the process's life.
 */

import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config({ ...en(), jitless: true });

export { z };
