// Start time and memory of the server: `node scripts/measure-start.mjs <runs> -- <command…>`.
// Starts the command (PORT, DATABASE_URL=$MEASURE_DATABASE_URL or memory:, and a key set), times until GET /healthz answers,
// then sums the resident memory (VmRSS) of the process and its descendants, and stops it.
// Prints the median of the runs. Linux only (reads /proc).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const sep = process.argv.indexOf('--');
const runs = Number(process.argv[2] ?? 3);
const [command, ...args] = process.argv.slice(sep + 1);
const port = 4490;

function descendants(pid) {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const parent = new Map();
  for (const p of all) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parent.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const found = [pid];
  for (let i = 0; i < found.length; i++) for (const [p, pp] of parent) if (pp === found[i]) found.push(p);
  return found;
}
const rssKiB = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  } catch {
    return 0;
  }
};

const times = [];
const memories = [];
for (let r = 0; r < runs; r++) {
  const started = performance.now();
  const child = spawn(command, args, {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: process.env.MEASURE_DATABASE_URL ?? 'memory:',
      WEBHOOK_API_KEY: 'measure',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  times.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 500));
  memories.push(descendants(child.pid).reduce((sum, pid) => sum + rssKiB(pid), 0) / 1024);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (const pid of descendants(child.pid).reverse()) process.kill(pid, 'SIGTERM');
  await exited;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `${[command, ...args].join(' ')}: start ${median(times).toFixed(0)} ms, resident memory ${median(memories).toFixed(0)} MiB (median of ${runs})`,
);
