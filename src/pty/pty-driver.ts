import { createRequire } from 'node:module';
import type * as NodePty from '@lydell/node-pty';

export type IPty = NodePty.IPty;
type Driver = typeof NodePty;

/** The platforms the pseudo-terminal package ships a prebuilt binary for (no compiler needed). */
export const PREBUILT_PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'] as const;

/** relevo cannot open a pseudo-terminal of its own here: no binary for this platform was installed. */
export class PtyUnavailable extends Error {
  constructor(readonly platform: string) {
    const supported = (PREBUILT_PLATFORMS as readonly string[]).includes(platform);
    super(
      supported
        ? `the pseudo-terminal binary for ${platform} (@lydell/node-pty-${platform}) is not installed: install relevo-tui again without --omit=optional`
        : `no prebuilt pseudo-terminal for ${platform} (there is one for ${PREBUILT_PLATFORMS.join(', ')})`,
    );
    this.name = 'PtyUnavailable';
  }
}

let driver: Driver | null = null;

/**
 * The pseudo-terminal driver, loaded on first use (a command that opens no terminal of relevo's
 * own never loads it). Its native part comes prebuilt in a per-platform optional package.
 */
export function ptyDriver(platform = `${process.platform}-${process.arch}`): Driver {
  if (driver) return driver;
  try {
    driver = createRequire(import.meta.url)('@lydell/node-pty') as Driver;
    return driver;
  } catch (error) {
    // The package says so with a several-line text; relevo says it in one line, with what to do.
    if (error instanceof Error && /could not find the binary package|does not support your platform/.test(error.message)) {
      throw new PtyUnavailable(platform);
    }
    throw error;
  }
}
