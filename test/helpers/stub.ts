/**
 * A test's stand-in for an object it needs only in part: the members it gives are checked against
 * the real type (names, nested objects, and parameters of functions); the rest are left out.
 */
export type Partly<T> = T extends (...args: infer A) => unknown
  ? { bivariant(...args: A): unknown }['bivariant']
  : T extends readonly unknown[]
    ? T
    : T extends object
      ? { [K in keyof T]?: Partly<T[K]> }
      : T;

/** `partial` as a `T` (only where a test truly needs a partial object; otherwise build the real one). */
export function stub<T extends object>(partial: Partly<T>): T;
export function stub(partial: object): object {
  return partial;
}

/** A terminal's keyboard side for RealTerminal in tests: raw mode, resume, pause and the encoding do nothing. */
export function quietStdin(): NodeJS.ReadStream {
  const stdin: NodeJS.ReadStream = stub<NodeJS.ReadStream>({
    isTTY: true,
    setRawMode: () => stdin,
    resume: () => stdin,
    pause: () => stdin,
    setEncoding: () => stdin,
  });
  return stdin;
}
