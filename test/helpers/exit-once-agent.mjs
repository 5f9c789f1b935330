// An agent CLI that exits at its first start, as one that is not logged in may: it prints a version
// and exits 0, leaving the file named by its first argument behind. Started again (the file is
// there), it runs the command that follows `--` in its terminal and exits as that command does.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';

const [marker, dashes, command, ...args] = process.argv.slice(2);
if (!marker || dashes !== '--' || !command) {
  process.stderr.write('usage: exit-once-agent.mjs MARKER -- COMMAND [ARGS...]\n');
  process.exit(2);
}
if (!existsSync(marker)) {
  writeFileSync(marker, `${process.pid}\n`);
  process.stdout.write('2.1.0 (Claude Code)\r\n');
  process.exit(0);
}
const run = spawnSync(command, args, { stdio: 'inherit' });
process.exit(run.status ?? 1);
