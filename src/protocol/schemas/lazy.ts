/**
 * A schema built where it is first used, not where its module loads: relevo's first frame loads the
 * protocol (its state machine, headers, prompts), and building every journal, checkpoint, hook and
 * profile schema then — a few hundred zod objects — cost the frame ≈ 20 ms it does not need.
 *
 * The value stands for the schema everywhere (`.parse`, `.shape`, `z.infer<typeof …>`, inside other
 * schemas): each read goes to the schema, built on the first one. What zod keys by the object itself
 * does not follow: a `.describe()` on the built schema's root is missing from `z.toJSONSchema` of the
 * stand-in (descriptions inside it are kept) — relevo.toml's schema, which editors read as JSON Schema,
 * is built on first use by a plain function instead (app/config/relevo-toml.ts).
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    // The stand-in holds no properties of its own: it may only report them as configurable.
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(schema(), key);
      return found === undefined ? undefined : { ...found, configurable: true };
    },
  });
}
