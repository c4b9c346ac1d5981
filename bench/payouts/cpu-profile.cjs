// Preloaded with NODE_OPTIONS=--require (where --cpu-prof is refused): profiles the process and writes
// a .cpuprofile to BENCH_CPU_PROF when it exits.
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');
process.on('exit', () => {
  session.post('Profiler.stop', (err, result) => {
    if (err) return;
    fs.writeFileSync(path.join(process.env.BENCH_CPU_PROF, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
