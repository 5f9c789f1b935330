#!/usr/bin/env node
// The command runs the bundle `npm run build` writes (dist/bundle/). `relevo-tui hook …` is run by
// an agent's end-of-turn hook on every turn: it goes straight to the small forwarder (node:net
// only), without loading the app.
const args = process.argv.slice(2);
if (args[0] === 'hook') {
  const { runHook } = await import('../dist/bundle/hook.js');
  process.exitCode = await runHook(args.slice(1));
} else {
  const { main } = await import('../dist/bundle/cli.js');
  process.exitCode = await main(args);
}
