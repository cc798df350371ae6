// Preloaded (--import) into every process of the bench stack: on SIGWINCH the
// process collects its garbage and writes process.memoryUsage() to
// $HEAP_PROBE_DIR/<pid>.json, so the soak compares live heap, not RSS (which
// also holds what V8 has not handed back yet). SIGWINCH, not SIGUSR2: signal-exit (in our
// dependencies) re-raises SIGUSR2 to end the process; SIGWINCH's default is to ignore it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const dir = process.env.HEAP_PROBE_DIR;
if (dir) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  process.on('SIGWINCH', () => {
    gc();
    writeFileSync(
      join(dir, `${process.pid}.json`),
      JSON.stringify({ at: Date.now(), ...process.memoryUsage() }),
    );
  });
}
