import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/*
 * /metrics of a host running several processes (WEB_CONCURRENCY, cluster.ts;
 * docs/operating.md#metrics-get-metrics). A connection reaches one process at random, so each
 * process alone would answer with its own counters and Prometheus would see a reset at every
 * scrape. Instead the process that gets the scrape asks the primary, which collects every
 * process's per-process series (each labelled `process="<n>"`, n its slot: a process started
 * again in place of one that died keeps the slot, and its counters restart from 0 as Prometheus
 * expects of a restarted process) and its own (`process="primary"`), and answers them as one
 * exposition. The figures read from the database (the queue, the webhooks) are the whole
 * service's: the answering process adds them once, unlabelled.
 */

const ASK = 'directory:metrics-ask'; // a process → the primary: every process's series, please
const COLLECT = 'directory:metrics-collect'; // the primary → each process: your series
const COLLECTED = 'directory:metrics-collected'; // each process → the primary
const ANSWER = 'directory:metrics-answer'; // the primary → the asking process

/** How long the primary waits for each process; one that does not answer in time is left out. */
const COLLECT_TIMEOUT_MS = 2_000;

/** A metric as getMetricsAsJSON gives it (the parts this file reads). */
type Series = { name: string; help: string; type: string; aggregator?: string; values: unknown[] };

type Message = { type?: unknown; id?: unknown; metrics?: unknown; text?: unknown; error?: unknown };
const isMessage = (m: unknown): m is Message => typeof m === 'object' && m !== null;

/** The slot of this process under WEB_CONCURRENCY (1…n), or undefined when it runs alone. */
export function processSlot(): string | undefined {
  return cluster.isWorker ? (process.env.DIRECTORY_PROCESS ?? String(cluster.worker?.id)) : undefined;
}

let shared: Registry | undefined;
let pending = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();
let nextId = 0;
let listening = false;

/** In a process of several: gives the primary this registry when it collects. */
export function shareProcessMetrics(registry: Registry): void {
  shared = registry;
  if (listening || !cluster.isWorker) return;
  listening = true;
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === COLLECT) {
      const registry = shared;
      void (registry ? registry.getMetricsAsJSON() : Promise.resolve([])).then(
        (metrics) => process.send?.({ type: COLLECTED, id: message.id, metrics }),
        () => process.send?.({ type: COLLECTED, id: message.id, metrics: [] }),
      );
    } else if (message.type === ANSWER && typeof message.id === 'number') {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (!waiting) return;
      if (typeof message.text === 'string') waiting.resolve(message.text);
      else waiting.reject(new Error('the primary could not collect the metrics'));
    }
  });
}

/** In a process of several: every process's series, as the primary collects them. */
export function hostMetrics(timeoutMs = COLLECT_TIMEOUT_MS + 1_000): Promise<string> {
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('the primary did not answer in time'));
    }, timeoutMs);
    timer.unref();
    pending.set(id, {
      resolve: (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      reject: (err) => {
        clearTimeout(timer);
        reject(err);
      },
    });
    process.send?.({ type: ASK, id });
  });
}

/** For tests: forget the waiting requests. */
export function resetHostMetrics(): void {
  pending = new Map();
}

/** In the primary: answers every process's ASK with all processes' series and its own. */
export function answerMetricsAsks(own: Registry): void {
  let nextCollect = 0;
  const collecting = new Map<number, { got: Series[][]; waiting: Set<number>; done: () => void }>();

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === COLLECTED && typeof message.id === 'number') {
      const round = collecting.get(message.id);
      if (!round?.waiting.delete(worker.id)) return;
      if (Array.isArray(message.metrics)) round.got.push(message.metrics as Series[]);
      if (round.waiting.size === 0) round.done();
      return;
    }
    if (message.type !== ASK) return;
    const id = nextCollect++;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w?.isConnected());
    const round = { got: [] as Series[][], waiting: new Set(workers.map((w) => w.id)), done: () => {} };
    collecting.set(id, round);
    const finished = new Promise<void>((resolve) => {
      round.done = resolve;
      setTimeout(resolve, COLLECT_TIMEOUT_MS).unref();
    });
    for (const w of workers) w.send({ type: COLLECT, id });
    if (workers.length === 0) round.done();
    void finished
      .then(async () => {
        collecting.delete(id);
        const all = [...round.got, (await own.getMetricsAsJSON()) as unknown as Series[]];
        return combine(all, workers.length - round.waiting.size).metrics();
      })
      .then(
        (text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text }),
        () => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, error: true }),
      );
  });
}

/**
 * One registry of the processes' series. Every series carries its process label, so adding
 * up by labels keeps each process's value as it is (prom-client's own aggregators would
 * average or drop some of Node's figures); and one gauge says how many processes answered.
 */
function combine(all: Series[][], answered: number): Registry {
  const series: Series[][] = all.map((metrics) => metrics.map((m) => ({ ...m, aggregator: 'sum' })));
  series.push([
    {
      name: 'server_processes_reporting',
      help: 'Server processes of this host whose series this scrape includes (a process that did not answer in time is left out)',
      type: 'gauge',
      aggregator: 'sum',
      values: [{ value: answered, labels: {} }],
    },
  ]);
  return AggregatorRegistry.aggregate(series);
}
