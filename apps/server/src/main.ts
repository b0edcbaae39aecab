import cluster from 'node:cluster';
import { runPrimary, serverProcesses } from './cluster.ts';
import { type Config, readConfig } from './config.ts';
import { createLogger } from './logger.ts';

// The server's entry point: one server process (serve.ts), or with WEB_CONCURRENCY > 1 on
// PostgreSQL, a primary that runs that many of them on the one port (cluster.ts).

let config: Config;
try {
  config = readConfig(process.env);
} catch (err) {
  console.error(`Invalid configuration: ${(err as Error).message}`);
  process.exit(2);
}
const { count, why } = serverProcesses(config);
if (cluster.isPrimary && count > 1) {
  runPrimary(count, config, createLogger(config.logLevel));
} else {
  if (why) createLogger(config.logLevel).warn({ webConcurrency: config.webConcurrency }, why);
  await import('./serve.ts');
}
