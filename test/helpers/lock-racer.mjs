// A process that races for a run's lock when the test says so (test/faults/lock-race.test.ts), with
// relevo's own code: the built dist/app/store/locks.js (npm test builds before the tests run).
// Messages in: {type:'race', dir, at} (take the lock at time `at`), {type:'release'}.
// Messages out: {type:'owner'} | {type:'lost', message}, then {type:'released', broken}: what the lock
// showed, if ever, while this process held the run and its record was not the highest.
const { lockRun, readLock } = await import(new URL('../../dist/app/store/locks.js', import.meta.url).href);

let release = null;
let watch = null;
let broken = null;
const check = (dir) => {
  const top = readLock(dir);
  if (broken === null && (top?.pid !== process.pid || top.released === true)) broken = JSON.stringify(top);
};

process.on('message', (m) => {
  if (m.type === 'race') {
    // The racers spin to the same moment, so their attempts overlap.
    while (Date.now() < m.at) {}
    try {
      release = lockRun(m.dir);
    } catch (error) {
      process.send({ type: 'lost', message: error.message });
      return;
    }
    broken = null;
    check(m.dir);
    watch = setInterval(() => check(m.dir), 1);
    process.send({ type: 'owner' });
  } else if (m.type === 'release') {
    clearInterval(watch);
    release?.();
    release = null;
    process.send({ type: 'released', broken });
  }
});
process.send({ type: 'ready' });
