import { configSchema } from './relevo-toml.js';
import { z } from './zod-mini.js';

// Its own module: zod's JSON Schema writer is not loaded with the settings on every start.

/** The JSON Schema of `relevo.toml`, for editors (taplo, Even Better TOML): `relevo-tui schema`. */
export function configJsonSchema(): Record<string, unknown> {
  return { title: 'relevo.toml', ...z.toJSONSchema(configSchema()) };
}
