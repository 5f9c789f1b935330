/**
 * A schema built on its first read, not when its module loads (the first frame loads the protocol
 * but needs none of its schemas); the value stands for the schema everywhere. A root `.describe()`
 * is lost to `z.toJSONSchema` (zod keys it by object): relevo.toml's schema is built by a function.
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
