/** The test host for vitest: one per test file (the host itself is test-host.ts, shared with the bench). */
import { afterAll, beforeAll } from 'vitest';
import { startTestHost, type TestHost, type TestHostOptions } from './test-host.js';

export { netnsUnavailable, startTestHost, type TestHost, type TestHostOptions } from './test-host.js';

/** One test host for the test file: started before its first test, stopped after its last; the getter gives it. */
export function testHostPerFile(
  options: TestHostOptions = {},
  before?: (host: TestHost) => void,
  after?: () => Promise<void>,
): () => TestHost {
  let host: TestHost | undefined;
  beforeAll(async () => {
    host = await startTestHost(options);
    before?.(host);
  }, 60_000);
  afterAll(async () => {
    try {
      await after?.();
    } finally {
      await host?.stop();
    }
  }, 60_000);
  return () => {
    if (host === undefined) throw new Error('the test host is not started');
    return host;
  };
}
