// Answer time of a command: `node scripts/measure-cli.mjs <runs> -- <command…>`.
// Runs the command that many times one after the other (stdout and stderr discarded), times each
// from spawn to exit, and prints the median, the fastest and the slowest. A run that exits non-zero
// stops the measurement (a failing command's time says nothing).
import { spawnSync } from 'node:child_process';

const sep = process.argv.indexOf('--');
const runs = Number(process.argv[2] ?? 10);
const [command, ...args] = process.argv.slice(sep + 1);
if (sep < 0 || !command || !(runs >= 1)) {
  console.error('usage: node scripts/measure-cli.mjs <runs> -- <command…>');
  process.exit(2);
}

const times = [];
for (let i = 0; i < runs; i++) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: 'ignore' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
    process.exit(1);
  }
  times.push(ms);
}
times.sort((a, b) => a - b);
const median =
  times.length % 2
    ? times[(times.length - 1) / 2]
    : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
const f = (ms) => `${Math.round(ms)} ms`;
console.log(
  `${[command, ...args].join(' ')}: median ${f(median)} (fastest ${f(times[0])}, slowest ${f(times.at(-1))}) of ${runs} runs`,
);
