// A fake agent that never ends its turn: with `flap`, its OSC title flips between a busy spinner
// and the idle mark every 50 ms; with `busy`, it shows the spinner for ever (output keeps coming).
const mode = process.argv[2] ?? 'flap';
process.stdout.write('\x1b]0;✳ fake\x07fake agent\r\n❯\u00a0\r\n');
let n = 0;
setInterval(() => {
  n++;
  const busy = mode === 'busy' || n % 2 === 1;
  process.stdout.write(`\x1b]0;${busy ? '⠂' : '✳'} fake\x07\r${busy ? 'thinking' : 'resting '} ${n}`);
}, 50);
process.on('SIGTERM', () => process.exit(0));
