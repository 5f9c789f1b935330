/** The one way tests wait: poll a condition, never assert on time (every limit here is generous). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export type Poll = {
  /** How long to wait between looks. Default 25 ms. */
  readonly everyMs?: number;
  /** What the timeout error shows besides `what` (the last screen…). */
  readonly show?: () => string;
};

/** Polls `get` until it returns something other than undefined; throws naming `what` after `ms`. */
export async function eventually<T>(
  what: string,
  get: () => T | undefined | Promise<T | undefined>,
  ms = 5000,
  poll: Poll = {},
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${poll.show ? `\n${poll.show()}` : ''}`);
    await sleep(poll.everyMs ?? 25);
  }
}

/** Waits for `check` to hold, polling; throws naming `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000, poll: Poll = {}): Promise<void> {
  await eventually(what, async () => ((await check()) ? true : undefined), ms, poll);
}
