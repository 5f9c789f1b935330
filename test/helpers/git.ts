import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeEach, expect, vi } from 'vitest';
import { RelayError } from '../../src/app/relays/git.js';
import type { Undo } from './undo.js';

const AUTHOR = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

/** Makes `cwd` a git repository with one commit (`users.ts`, `.relevo/` ignored); returns a git runner for it. */
export async function gitRepo(cwd: string) {
  const git = (...args: string[]) => execa('git', args, { cwd, env: AUTHOR });
  await git('init', '-q');
  writeFileSync(join(cwd, '.gitignore'), '.relevo/\n');
  writeFileSync(join(cwd, 'users.ts'), 'export const users = [];\n');
  await git('add', '.');
  await git('commit', '-q', '-m', 'start');
  return git;
}

/** Before each test of the file, git's author and committer set in the environment (undone after it). */
export function gitAuthorEachTest(undo: Undo): void {
  beforeEach(() => {
    for (const [k, v] of Object.entries(AUTHOR)) vi.stubEnv(k, v);
    undo.add(() => vi.unstubAllEnvs());
  });
}

/** The one-line message a refused relay call throws (a RelayError, never anything else). */
export async function refusal(p: Promise<unknown>): Promise<string> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RelayError);
  const message = (error as RelayError).message;
  expect(message).not.toContain('\n');
  return message;
}
