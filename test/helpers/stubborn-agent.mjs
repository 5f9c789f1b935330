#!/usr/bin/env node
// A fake agent that will not be stopped politely: it ignores SIGHUP and SIGTERM, and starts a child
// that ignores them too (as an agent CLI's tool processes may). It shows a shell-like prompt (the
// generic profile's idle), and once it is typed anything it stays busy for good. Usage:
//   stubborn-agent.mjs PIDS_FILE   (writes {"pid":…,"child":…} there once both run)
import { spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';

const [pidsFile] = process.argv.slice(2);
const ignore = () => {};
process.on('SIGHUP', ignore);
process.on('SIGTERM', ignore);
// Its terminal may go away (relevo killed): reads and writes then fail, and it lives on regardless.
process.stdin.on('error', ignore);
process.stdout.on('error', ignore);

const child = spawn(
  process.execPath,
  ['-e', "process.on('SIGHUP', () => {}); process.on('SIGTERM', () => {}); setInterval(() => {}, 60_000);"],
  { stdio: 'ignore' },
);
child.on('spawn', () => {
  if (pidsFile) {
    writeFileSync(`${pidsFile}.tmp`, JSON.stringify({ pid: process.pid, child: child.pid }));
    renameSync(`${pidsFile}.tmp`, pidsFile);
  }
  process.stdout.write('stubborn agent ready\r\n$ ');
});

let busy = false;
process.stdin.on('data', () => {
  if (busy) return;
  busy = true;
  process.stdout.write('\r\nworking on it, for ever…\r\n');
});
setInterval(ignore, 60_000);
