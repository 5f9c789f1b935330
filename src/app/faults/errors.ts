import type { z } from 'zod';

/** Bad usage or configuration: the CLI prints `relevo-tui: <where>: <message>` and exits 2. */
export class ConfigError extends Error {
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }

  override toString(): string {
    return `${this.where}: ${this.message}`;
  }
}

/** The first zod issue as one line: `field.path: message`. */
export function firstIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: '', message: 'invalid' };
  return { path: issue.path.map(String).join('.'), message: issue.message };
}
