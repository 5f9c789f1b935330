import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doneMemory, Memory, MNEMOSYNE_INSTALL_HINT, projectBank, roundMemory } from '../../src/app/store/memory.js';
import { type FakeMnemosyne, fakeMnemosyne } from '../helpers/fake-mnemosyne.js';

let fake: FakeMnemosyne;
let tmp: string;
let repo: string;

beforeEach(async () => {
  fake = fakeMnemosyne();
  tmp = mkdtempSync(join(tmpdir(), 'relevo-memory-'));
  repo = join(tmp, 'My Project!');
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  await execa('git', ['init', '-q', repo], { stdin: 'ignore' });
});

afterEach(() => {
  fake.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

describe('projectBank', () => {
  it('names the bank after the git toplevel, even from a subdirectory', () => {
    expect(projectBank(repo)).toBe('my-project-');
    expect(projectBank(join(repo, 'src', 'deep'))).toBe('my-project-');
  });

  it('uses the directory name outside git, sanitised, cut to 64 chars, never empty', () => {
    const plain = join(tmp, 'Plain Dir', 'Ünï Côde.v2_x');
    const long = join(tmp, 'A'.repeat(80));
    mkdirSync(plain, { recursive: true });
    mkdirSync(long);
    expect(projectBank(plain)).toBe('-n--c-de.v2_x');
    expect(projectBank(long)).toBe('a'.repeat(64));
    expect(projectBank('/')).toBe('project');
  });
});

describe('Memory', () => {
  it('is ready with the fake on PATH and stores with argv, bank and scope exactly as documented', async () => {
    const memory = await Memory.open(fake.env(), repo);
    expect(memory.status).toEqual({ state: 'ready', bank: 'my-project-', bin: resolve(fake.dir, 'mnemosyne') });
    const text = 'relevo r1 · round 1 · planner → builder: Step 1 of 3';
    expect(await memory.store(text)).toEqual({ ok: true, id: 'mem-1' });
    expect(await memory.store('second')).toEqual({ ok: true, id: 'mem-2' });
    expect(fake.calls()).toEqual([
      { argv: ['store', text, 'relevo', '0.8'], bank: 'my-project-', scope: 'global' },
      { argv: ['store', 'second', 'relevo', '0.8'], bank: 'my-project-', scope: 'global' },
    ]);
  });

  it('never passes a text starting with "-" as something that looks like a flag', async () => {
    const memory = await Memory.open(fake.env(), repo);
    expect(await memory.store('--help')).toEqual({ ok: true, id: 'mem-1' });
    expect(fake.calls().map((c) => c.argv)).toEqual([['store', '· --help', 'relevo', '0.8']]);
  });

  it('reports a failing mnemosyne as one line with its first stderr line', async () => {
    const memory = await Memory.open(fake.env({ FAKE_MNEMOSYNE_FAIL: '1' }), repo);
    expect(await memory.store('x')).toEqual({ ok: false, detail: 'mnemosyne store exited 1: error: database is locked' });
    expect(fake.calls()).toHaveLength(1);
  });

  it('passes exactly the given env (plus bank and scope) to mnemosyne', async () => {
    const env = fake.env();
    delete env.FAKE_MNEMOSYNE_LOG;
    const memory = await Memory.open(env, repo);
    expect(await memory.store('x')).toEqual({
      ok: false,
      detail: 'mnemosyne store exited 2: fake mnemosyne: FAKE_MNEMOSYNE_LOG is not set',
    });
    expect(fake.calls()).toEqual([]);
  });

  it('is blocked with the install hint when mnemosyne is not on PATH, and then runs nothing', async () => {
    const empty = join(tmp, 'empty-bin');
    mkdirSync(empty);
    for (const PATH of [empty, '', undefined]) {
      const memory = await Memory.open(fake.env({ PATH }), repo);
      const detail = `mnemosyne not found on PATH; install it with: ${MNEMOSYNE_INSTALL_HINT}`;
      expect(memory.status).toEqual({ state: 'blocked', detail });
      expect(detail).toContain('uv tool install --python 3.12 mnemosyne-memory');
      expect(await memory.store('x')).toEqual({ ok: false, detail });
    }
    expect(fake.calls()).toEqual([]);
  });
});

describe('memory texts', () => {
  it('roundMemory keeps the first non-blank line, trimmed and cut to 200 chars', () => {
    expect(roundMemory('r7', 3, 'builder', 'planner', '\n  \n  Round 3 report  \nDid: things\n')).toBe(
      'relevo r7 · round 3 · builder → planner: Round 3 report',
    );
    expect(roundMemory('r7', 1, 'planner', 'builder', `${'x'.repeat(250)}\nmore`)).toBe(
      `relevo r7 · round 1 · planner → builder: ${'x'.repeat(200)}`,
    );
  });

  it('doneMemory collapses whitespace and cuts to 1000 chars', () => {
    expect(doneMemory('r7', '  Added\tpagination\n\n to /users  ')).toBe('relevo r7 · done: Added pagination to /users');
    expect(doneMemory('r7', 'y'.repeat(1200))).toBe(`relevo r7 · done: ${'y'.repeat(1000)}`);
  });
});
