/**
 * zod as the flags and relevo.toml check them: zod/mini, whose functions a bundle keeps only as
 * used (≈ 15 KB), where zod's classic API takes ≈ 85 KB and ≈ 12 ms more to load, all of it before
 * the TUI's first frame. Its messages are zod's own English ones, as the classic API sets them.
 */

import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config(en());

export { z };
