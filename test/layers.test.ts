import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') || e.name.endsWith('.tsx') ? [join(dir, e.name)] : [],
  );
}

/** Every module a file imports, as written. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)].map((m) => m[1] ?? m[2]!);
}

/** The top folder (under src/) an import lands in, or the package name. */
function target(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec.startsWith('node:') ? 'node:' : spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
  return relative(SRC, join(file, '..', spec)).split('/')[0]!;
}

const layer = (folder: string) => sources(join(SRC, folder)).map((f) => ({ f, targets: imports(f).map((s) => target(f, s)) }));

describe('layers: dependencies point inward, toward src/protocol', () => {
  it('src/protocol is pure: only itself and zod (no node:*, no terminals, no UI)', () => {
    for (const { f, targets } of layer('protocol')) {
      for (const t of targets) expect([`protocol`, 'zod'], `${relative(SRC, f)} imports ${t}`).toContain(t);
    }
  });

  it('src/pty knows the protocol and terminals, never the wiring, the simulator or the UI', () => {
    // execa, which and zod: attaching to tmux and Herdr panes runs their CLIs and reads their JSON.
    const allowed = ['pty', 'protocol', 'node:', 'node-pty', '@xterm/headless', '@xterm/addon-unicode11', 'execa', 'which', 'zod'];
    for (const { f, targets } of layer('pty')) {
      for (const t of targets) expect(allowed, `${relative(SRC, f)} imports ${t}`).toContain(t);
    }
  });

  it('@xterm/headless is used in src/pty/screen.ts alone', () => {
    const users = sources(SRC).filter((f) => imports(f).some((s) => s.startsWith('@xterm/')));
    expect(users.map((f) => relative(SRC, f))).toEqual(['pty/screen.ts']);
  });

  it('the simulator stands alone, like any agent CLI relevo drives', () => {
    for (const { f, targets } of layer('sim')) {
      for (const t of targets) expect(['sim', 'node:', 'zod'], `${relative(SRC, f)} imports ${t}`).toContain(t);
    }
  });
});
