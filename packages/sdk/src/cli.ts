#!/usr/bin/env node
import { run } from './cli/run.ts';

// A reader that goes away early (`directory tasks list --all | head`) ends the output, not the
// run with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});

run(process.argv.slice(2), {
  // Touched only for '-': creating process.stdin can keep an idle process alive.
  stdin: {
    [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator](),
    get isTTY() {
      return process.stdin.isTTY;
    },
  },
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stopSignal: () => {
    const stop = new AbortController();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort(signal));
    return stop.signal;
  },
}).then((code) => {
  // exitCode rather than exit(): lets piped stdout drain.
  process.exitCode = code;
});
