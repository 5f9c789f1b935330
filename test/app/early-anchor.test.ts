import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EarlyAnchors } from '../../src/app/run/early-anchor.js';
import { gitAnchor } from '../../src/app/store/git.js';
import { tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';

describe('EarlyAnchors: the anchor started at the hook report', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** A git repository, and anchors that count the anchors they take (real git). */
  const setup = async () => {
    const cwd = tempDir('relevo-early-anchor-');
    dirs.push(cwd);
    await gitRepo(cwd);
    const calls = { n: 0 };
    const anchors = new EarlyAnchors((dir) => {
      calls.n++;
      return gitAnchor(dir);
    });
    return { cwd, calls, anchors, edit: (n: number) => writeFileSync(join(cwd, 'users.ts'), `export const users = [${n}];\n`) };
  };

  it("is the one the screen's turn end takes when the report came in this turn", async () => {
    const { cwd, calls, anchors, edit } = await setup();
    const since = Date.now();
    anchors.reported('builder', cwd);
    const early = await anchors.take('builder', cwd, since);
    expect(calls.n).toBe(1);
    expect(early).toEqual(await gitAnchor(cwd));
    expect(early?.head).toMatch(/^[0-9a-f]{40}/);
    edit(1);
    expect((await gitAnchor(cwd))?.status_sha256).not.toBe(early?.status_sha256);
  });

  it('is taken once: a second turn end anchors the workspace as it is then', async () => {
    const { cwd, calls, anchors, edit } = await setup();
    anchors.reported('builder', cwd);
    const first = await anchors.take('builder', cwd, 0);
    edit(2);
    const second = await anchors.take('builder', cwd, 0);
    expect(calls.n).toBe(2);
    expect(second).toEqual(await gitAnchor(cwd));
    expect(second?.status_sha256).not.toBe(first?.status_sha256);
  });

  it('is dropped for a report of a turn before this one, and kept per role', async () => {
    const { cwd, calls, anchors, edit } = await setup();
    anchors.reported('builder', cwd);
    anchors.reported('planner', cwd);
    const planner = await anchors.take('planner', cwd, 0);
    expect(calls.n).toBe(2);
    edit(3);
    const builder = await anchors.take('builder', cwd, Date.now() + 1);
    expect(calls.n).toBe(3);
    expect(builder).toEqual(await gitAnchor(cwd));
    expect(builder?.status_sha256).not.toBe(planner?.status_sha256);
  });

  it('takes a new one with no report', async () => {
    const { cwd, calls, anchors } = await setup();
    expect(await anchors.take('planner', cwd, 0)).toEqual(await gitAnchor(cwd));
    expect(calls.n).toBe(1);
  });
});
