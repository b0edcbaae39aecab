import type { ChangesResult } from './changes.ts';
import type { HistoryResult } from './history.ts';
import type { Freshness, ModelFigures, UpsertComparison } from './model.ts';
import type { Measurement } from './scenarios.ts';
import type { WriterRun } from './writer.ts';

/* What a run of `pnpm bench` reports (bench/report.ts renders it). */

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  date: string;
  /** 1-minute load average when the run started: other work on the machine skews every figure. */
  load: number;
}

export interface Settings {
  duration: number;
  warmup: number;
  connections: number;
  batchConnections: number;
  upsertConnections: number;
  dbPoolSize: number;
  sizes: number[];
}

export interface SizeResult {
  projects: number;
  tasks: number;
  seedSeconds: number;
  /** Projects written through endpoint 1, or straight into the tables. */
  via: 'api' | 'sql';
  measurements: Measurement[];
  model: ModelFigures;
  freshness?: Freshness;
  /** Searches while a writer updates projects (bench/writer.ts). */
  writer?: WriterRun[];
  /** Warnings and errors the service logged during the run (LOG_LEVEL=warn). */
  serverLog: string;
}

export interface Report {
  machine: Machine;
  settings: Settings;
  sizes: SizeResult[];
  /** The change feed and webhooks (bench/changes.ts). */
  changes?: ChangesResult;
  /** History: revisions on every write (bench/history.ts). */
  history?: HistoryResult;
  /** Upserts with the read model and before it (bench/model.ts). */
  upserts?: UpsertComparison;
}
