/**
 * `node dist/bench/ink-floor/ink-floor.js [--relevo-modules=frame|run] TEXT`: the floor of any Ink
 * TUI's start-up and memory on this machine — Node, React, Ink and yoga, bundled and loaded as
 * relevo's command is (`npm run build:bench` writes it), painting TEXT in one bordered line, then idle
 * until SIGTERM or SIGHUP. The start-up bench times its first frame beside relevo's; the memory
 * bench reads its RSS.
 *
 * With `--relevo-modules`, it also loads relevo's own code first and runs none of it: `frame`, the
 * modules relevo loads before its first frame (src/cli.ts: the flags', relevo.toml's and the TUI's
 * first frame); `run`, those and the run's, then, once still for as long as relevo waits, the
 * collection relevo makes to give memory back (app/run/memory-relief.ts: compiled code dropped,
 * the old generation compacted). What relevo takes beyond that is what it does.
 */
const modules = /^--relevo-modules=(frame|run)$/.exec(process.argv[2] ?? '')?.[1];
const args = process.argv.slice(modules === undefined ? 2 : 3);

// Ink loaded as relevo loads it (src/cli.ts, importTui): without `fetch`, yoga decodes its binary with atob.
const fetch = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
if (fetch?.configurable) Reflect.deleteProperty(globalThis, 'fetch');
const { Box, render, Text } = await import('ink');
if (modules !== undefined) {
  await Promise.all([
    import('../src/app/config/options.js'),
    import('../src/app/config/relevo-toml.js'),
    import('../src/tui/start.js'),
    ...(modules === 'run' ? [import('../src/tui/app.js')] : []),
  ]);
}
if (modules === 'run') {
  const { exposedGc, RELIEF_MS, relievingGc } = await import('../src/app/run/memory-relief.js');
  const gc = exposedGc();
  if (gc !== null) setTimeout(relievingGc(gc), RELIEF_MS).unref();
}
if (fetch?.configurable) Object.defineProperty(globalThis, 'fetch', fetch);

// Debug mode, as relevo renders its chrome (src/tui/paint/offscreen.ts): each render written whole, at
// once — and so also under CI=true, where Ink otherwise writes only the last frame, at exit.
const app = render(
  <Box borderStyle="round" width={60}>
    <Text>{args[0] ?? 'ink floor'}</Text>
  </Box>,
  { debug: true, patchConsole: false },
);
// `ink-floor.js TEXT COLS ROWS PROGRAM…`: also two panes, as relevo holds its agents: PROGRAM in two
// pseudo-terminals, each parsed into a headless terminal of COLS×ROWS with relevo's 500 lines of
// xterm scrollback.
const [cols, rows, ...program] = args.slice(1);
const panes =
  program.length > 0
    ? await Promise.all(
        [0, 1].map(async () => {
          const [{ ptyDriver }, { default: xterm }] = await Promise.all([import('../src/pty/pty-driver.js'), import('@xterm/headless')]);
          const size = { cols: Number(cols), rows: Number(rows) };
          const term = new xterm.Terminal({ ...size, scrollback: 500, allowProposedApi: true });
          const pty = ptyDriver().spawn(program[0]!, program.slice(1), {
            name: 'xterm-256color',
            ...size,
            cwd: process.cwd(),
            env: process.env as Record<string, string>,
          });
          pty.onData((data) => term.write(data));
          return pty;
        }),
      )
    : [];
// Idle like relevo between turns: nothing scheduled but one far timer that keeps the process alive.
const alive = setTimeout(() => {}, 2 ** 31 - 1);
const end = () => {
  clearTimeout(alive);
  for (const pty of panes) pty.kill();
  app.unmount();
  process.exit(0);
};
process.on('SIGTERM', end);
process.on('SIGHUP', end);
