import type autocannon from 'autocannon';

// The shapes of a benchmark scenario and its measurement: a file of their own, so that the files
// that define scenarios (search.ts) need not import scenarios.ts, which imports them.

export interface Measurement {
  key: string;
  label: string;
  target: 'server' | 'baseline';
  connections: number;
  seconds: number;
  responses: number;
  /** Responses of any status per second. */
  reqPerSec: number;
  /** Latency of all responses, in milliseconds. */
  p50: number;
  p99: number;
  /**
   * CPU time the target process spent per response (user + system), when the OS tells
   * (Linux): less sensitive than req/s to other work on the machine.
   */
  cpuMsPerRequest?: number;
  /** Responses by status code. */
  status: Record<string, number>;
  non2xx: number;
  /** Connection errors, timeouts included (no response at all). */
  errors: number;
  /** Batch scenarios: items handled per second (upserts: projects created or updated). */
  itemsPerSec?: number;
  notes: string[];
}

/** What a run of a scenario reports besides what autocannon counts. */
export interface Tally {
  created: number;
  updated: number;
  failed: number;
  notes: Set<string>;
}

export interface Scenario {
  key: string;
  label: string;
  target: 'server' | 'baseline';
  connections: number;
  /** Batch scenarios: the items a run handled, from its count of 2xx replies and its tally. */
  items?: (ok: number, tally: Tally) => number;
  /** Runs once before the warm-up. */
  prepare?: () => Promise<void>;
  /** The requests of one autocannon run; warm-up and measurement each get their own. */
  requests(tally: Tally): autocannon.Request[];
}

export interface ScenarioOptions {
  connections: number;
  batchConnections: number;
  upsertConnections: number;
  duration: number;
  warmup: number;
  /** PENDING tasks added for the claim scenario per second of warm-up and measurement. */
  claimsPerSecond: number;
}
