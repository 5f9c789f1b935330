/**
 * zod as the flags, relevo.toml and the agent choice check them: zod/mini, whose functions a bundle
 * keeps only as used. Before the TUI's first frame that is zod's core and a few checks (≈ 66 KB
 * bundled), where the classic API brought ≈ 130 KB. Its messages are zod's own English ones, as
 * the classic API sets them.
 */

import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config(en());

export { z };
