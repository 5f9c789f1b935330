import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');
const BENCH = join(ROOT, 'bench');
const PTY_HELPERS = join(ROOT, 'test', 'helpers', 'pty');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') || e.name.endsWith('.tsx') ? [join(dir, e.name)] : [],
  );
}

/** Every module a file imports, as written. */
function imports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const written = /^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...text.matchAll(written)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The room (a folder under src/, or a top file) an import lands in, or the package name. */
function target(file: string, spec: string): string {
  if (!spec.startsWith('.'))
    return spec.startsWith('node:')
      ? 'node:'
      : spec
          .split('/')
          .slice(0, spec.startsWith('@') ? 2 : 1)
          .join('/');
  return roomOf(join(file, '..', spec));
}

/** The innermost room of RANK that holds `file` (e.g. `app/store`), else its top folder. */
function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  for (let n = parts.length - 1; n > 0; n--) {
    const room = parts.slice(0, n).join('/');
    if (RANK[room] !== undefined) return room;
  }
  return parts[0]!;
}

/** A folder's modules with the top folders they import (`pty/backends` counts as `pty`). */
const layer = (folder: string) =>
  sources(join(SRC, folder)).map((f) => ({
    f,
    targets: imports(f).map((s) => (s.startsWith('.') ? target(f, s).split('/')[0]! : target(f, s))),
  }));

/**
 * Where each room of src/ sits: a module may import its own room and any room of a lower rank,
 * never one of the same or a higher rank. protocol ← pty ← app ← tui ← the command; inside pty the
 * backends sit on the terminal core; inside app, faults ← store, replies ← config ← run ← commands;
 * inside tui, paint ← input ← state ← view ← actions ← picker ← dashboard ← the start-up files at its top.
 * The hook program and the simulator stand beside them (see their own tests); dev is a tool on top.
 * The bench is no room of src/: it lives in bench/, on top of src/ (see the tree's own test below).
 */
const RANK: Readonly<Record<string, number>> = {
  protocol: 0,
  pty: 1,
  'pty/backends': 1.5,
  'app/faults': 2,
  'app/store': 2.1,
  'app/replies': 2.15,
  'app/config': 2.2,
  'app/run': 2.3,
  'app/relays': 2.35,
  'app/commands': 2.4,
  'tui/paint': 3,
  'tui/input': 3.05,
  'tui/state': 3.1,
  'tui/view': 3.15,
  'tui/actions': 3.2,
  'tui/picker': 3.25,
  'tui/dashboard': 3.27,
  tui: 3.3,
  hook: 3.5,
  sim: 3.6,
  'cli.ts': 4,
  dev: 4.2,
};

/** Relative imports, resolved to files under src/ (`.js` written, `.ts`/`.tsx` on disk). */
function localImports(file: string): string[] {
  return imports(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => {
      const js = join(file, '..', s);
      const found = [js.replace(/\.js$/, '.ts'), js.replace(/\.js$/, '.tsx')].find((f) => existsSync(f));
      return found ?? js;
    });
}

/** A cycle among src/'s modules, as the files on it, or null. */
function findCycle(files: readonly string[]): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const next of localImports(f)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of files) {
    const cycle = visit(f);
    if (cycle) return cycle.map((c) => relative(SRC, c));
  }
  return null;
}

/** Imports of `file` that point to a room ranked at or above its own (its own room excepted). */
function upwardImports(file: string, text?: string): string[] {
  const own = roomOf(file);
  const rank = RANK[own];
  if (rank === undefined) return [`${own} has no rank in RANK`];
  return imports(file, text)
    .filter((s) => s.startsWith('.'))
    .map((s) => target(file, s))
    .filter((t) => t !== own && (RANK[t] === undefined || RANK[t] >= rank));
}

/**
 * Relative imports of `file` that land outside every folder or file of `allowed` (paths under the
 * repository's root): src/ stands on itself alone, the bench on src/ and the shared pseudo-terminal
 * runner (with the one sleep it uses), and that runner on src/ and itself.
 */
function importsOutside(file: string, allowed: readonly string[], text?: string): string[] {
  return imports(file, text)
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(ROOT, join(file, '..', s)))
    .filter((to) => !allowed.some((a) => to === a || to.startsWith(`${a}/`)));
}

/** What each tree outside src/'s rooms may import, as paths under the root. */
const TREES: Readonly<Record<string, { dir: string; allowed: readonly string[] }>> = {
  src: { dir: SRC, allowed: ['src'] },
  bench: { dir: BENCH, allowed: ['src', 'bench', 'test/helpers/pty', 'test/helpers/until.js', 'test/helpers/test-host.js'] },
  'test/helpers/pty': { dir: PTY_HELPERS, allowed: ['src', 'test/helpers/pty', 'test/helpers/until.js'] },
};

describe('layers: dependencies point inward, toward src/protocol', () => {
  it('no module imports a room of its rank or above (protocol ← pty ← app ← tui ← cli, dev)', () => {
    const upward = sources(SRC).flatMap((f) => upwardImports(f).map((t) => `${relative(SRC, f)} → ${t}`));
    expect(upward).toEqual([]);
  });

  it('the check catches an upward import, a sibling import and an unranked room', () => {
    const at = (path: string) => join(SRC, path);
    expect(upwardImports(at('pty/screen.ts'), "import { x } from '../app/run/runner.js';")).toEqual(['app/run']);
    expect(upwardImports(at('pty/screen.ts'), "import type { X } from './backends/tmux.js';")).toEqual(['pty/backends']);
    expect(upwardImports(at('app/store/journal.ts'), "export { y } from '../replies/transcript.js';")).toEqual(['app/replies']);
    expect(upwardImports(at('protocol/machine.ts'), "import './x.js';\nconst m = await import('../tui/app.js');")).toEqual(['tui']);
    expect(upwardImports(at('tui/paint/width.ts'), "import type { TuiState } from '../state/store.js';")).toEqual(['tui/state']);
    expect(upwardImports(at('tui/view/frame.ts'), "import { copyMode } from '../actions/copy-mode.js';")).toEqual(['tui/actions']);
    expect(upwardImports(at('tui/actions/input-router.ts'), "import { runTui } from '../app.js';")).toEqual(['tui']);
    expect(
      upwardImports(at('tui/view/components/Chrome.tsx'), "import { fit } from '../../paint/width.js';\nimport Help from './Help.js';"),
    ).toEqual([]);
    expect(
      upwardImports(at('app/run/runner.ts'), "import { z } from '../store/journal.js';\nimport { a } from '../../pty/backends/tmux.js';"),
    ).toEqual([]);
    expect(upwardImports(at('app/newroom/file.ts'), '')).toEqual(['app has no rank in RANK']);
  });

  it('src has no import cycle', () => {
    expect(findCycle(sources(SRC))).toBeNull();
  });

  it('the hook program reads its message shape from the protocol, nothing else of relevo', () => {
    for (const { f, targets } of layer('hook')) {
      for (const t of targets) expect(['hook', 'protocol', 'node:'], `${relative(SRC, f)} imports ${t}`).toContain(t);
    }
  });

  it('src/protocol is pure: only itself and zod (no node:*, no terminals, no UI)', () => {
    for (const { f, targets } of layer('protocol')) {
      for (const t of targets) expect([`protocol`, 'zod'], `${relative(SRC, f)} imports ${t}`).toContain(t);
    }
  });

  it('src/pty knows the protocol and terminals, never the wiring, the simulator or the UI', () => {
    // execa, which and zod: attaching to tmux and Herdr panes runs their CLIs and reads their JSON.
    const allowed = ['pty', 'protocol', 'node:', '@lydell/node-pty', '@xterm/headless', '@xterm/addon-unicode11', 'execa', 'which', 'zod'];
    for (const { f, targets } of layer('pty')) {
      for (const t of targets) expect(allowed, `${relative(SRC, f)} imports ${t}`).toContain(t);
    }
  });

  it("@xterm/headless is used in src/pty/screen.ts alone (and by the bench floors and the tests' virtual screen)", () => {
    const helpers = join(ROOT, 'test', 'helpers');
    const users = [SRC, BENCH, helpers].flatMap(sources).filter((f) => imports(f).some((s) => s.startsWith('@xterm/')));
    // bench/bare-stack.ts (with parse-worker.ts, its terminals on worker threads) is the throughput
    // bench's "bare node-pty + @xterm/headless" floor, and ink-floor.tsx holds two such panes for the
    // memory bench's: they must not go through Screen. The tests and the bench read a program's
    // output on test/helpers/pty/screen.ts.
    expect(users.map((f) => relative(ROOT, f)).sort()).toEqual([
      'bench/bare-stack.ts',
      'bench/ink-floor.tsx',
      'bench/parse-worker.ts',
      'src/pty/screen.ts',
      'test/helpers/pty/screen.ts',
    ]);
  });

  it('src/ imports nothing outside src/; the bench only src/, bench/ and the shared pty runner; that runner only src/ and itself', () => {
    const outside = Object.values(TREES).flatMap(({ dir, allowed }) =>
      sources(dir).flatMap((f) => importsOutside(f, allowed).map((to) => `${relative(ROOT, f)} → ${to}`)),
    );
    expect(outside).toEqual([]);
  });

  it('the check catches src/ importing the bench or the tests, and the bench importing other tests', () => {
    const { src, bench } = TREES;
    const at = (path: string) => join(ROOT, path);
    expect(importsOutside(at('src/tui/app.tsx'), src!.allowed, "import { x } from '../../bench/figure.js';")).toEqual(['bench/figure.js']);
    expect(importsOutside(at('src/cli.ts'), src!.allowed, "const t = await import('../test/helpers/cli.js');")).toEqual([
      'test/helpers/cli.js',
    ]);
    expect(importsOutside(at('bench/echo.ts'), bench!.allowed, "import { relevo } from '../test/helpers/cli.js';")).toEqual([
      'test/helpers/cli.js',
    ]);
    expect(
      importsOutside(
        at('bench/echo.ts'),
        bench!.allowed,
        "import { a } from '../src/pty/screen.js';\nimport { b } from '../test/helpers/pty/program.js';\nimport { c } from './figure.js';",
      ),
    ).toEqual([]);
  });

  it('the simulator stands alone, like any agent CLI relevo drives', () => {
    for (const { f, targets } of layer('sim')) {
      for (const t of targets) expect(['sim', 'node:', 'zod'], `${relative(SRC, f)} imports ${t}`).toContain(t);
    }
  });
});
