import { describe, expect, it } from 'vitest';
import { branchForGoal, branchSlug, freeName, worktreePath } from '../../src/protocol/index.js';

describe('relay names', () => {
  it("a goal's first line gives relevo/<a few lowercase ASCII words>", () => {
    expect(branchForGoal('Add pagination to the users API\nthen tests')).toBe('relevo/add-pagination-to-the-users');
    expect(branchForGoal('  Fix: crash in café_menu!  ')).toBe('relevo/fix-crash-in-cafe-menu');
    expect(branchForGoal('\n\nsecond line wins when first is blank')).toBe('relevo/second-line-wins-when-first');
  });

  it('bounds the length and never ends in "-"; nothing left gives relevo/relay', () => {
    const long = branchForGoal(`${'a'.repeat(30)} ${'b'.repeat(30)} c`);
    expect(long).toBe(`relevo/${'a'.repeat(30)}`);
    expect(branchForGoal('x'.repeat(100))).toBe(`relevo/${'x'.repeat(40)}`);
    expect(branchForGoal('日本語 !!! ---')).toBe('relevo/relay');
    expect(branchForGoal('')).toBe('relevo/relay');
    expect(branchForGoal('fix -')).not.toMatch(/-$/);
  });

  it('a free name: the name, else name-2, name-3…', () => {
    expect(freeName('relevo/a', [])).toBe('relevo/a');
    expect(freeName('relevo/a', ['relevo/a'])).toBe('relevo/a-2');
    expect(freeName('relevo/a', ['relevo/a', 'relevo/a-2', 'relevo/a-4'])).toBe('relevo/a-3');
  });

  it("a branch's slug is one directory name", () => {
    expect(branchSlug('relevo/add-pagination')).toBe('add-pagination');
    expect(branchSlug('feature/x y')).toBe('feature-x-y');
    expect(branchSlug('relevo/..')).toBe('relay');
  });

  it('the worktree goes beside the repository, or in worktrees_dir', () => {
    expect(worktreePath('/home/me/shop', 'relevo/add-pagination')).toBe('/home/me/shop.relevo/add-pagination');
    expect(worktreePath('/home/me/shop/', 'relevo/a')).toBe('/home/me/shop.relevo/a');
    expect(worktreePath('/shop', 'relevo/a')).toBe('/shop.relevo/a');
    expect(worktreePath('/home/me/shop', 'relevo/a', '/tmp/trees/')).toBe('/tmp/trees/a');
    expect(worktreePath('/home/me/shop', 'relevo/a', '')).toBe('/home/me/shop.relevo/a');
  });
});
