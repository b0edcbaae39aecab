import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '@directory/db';
import { createLogger, describeError } from '../logger.ts';
import { type DispatchThreadData, THREAD_MESSAGES } from './dispatch.ts';
import { startDispatcher } from './dispatcher.ts';

// The webhook dispatcher's own thread (docs/changes-and-webhooks.md#webhooks--key): its own connections
// to PostgreSQL, woken by the process's change signal through messages, so that sending never
// takes the event loop from the requests whose writes queued the deliveries.
const data = workerData as DispatchThreadData;

// Below the requests' priority: on a busy machine the writes keep their CPU and the deliveries
// they queued are sent with what is left (on Linux a thread has its own priority; elsewhere, or
// where /proc is absent, the thread keeps the process's).
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid)) setPriority(tid, constants.priority.PRIORITY_BELOW_NORMAL);
} catch {
  // not Linux: same priority as the requests
}
const port = parentPort!;
const logger = createLogger(data.logLevel).child({ thread: 'webhooks' });
const subscribers = new Set<() => void>();
const signal = {
  subscribe(fn: () => void) {
    subscribers.add(fn);
    return () => subscribers.delete(fn);
  },
};

try {
  const handle = await connect(data.databaseUrl, data.connectOptions);
  const dispatcher = startDispatcher({ db: handle.db, signal, logger, ...data.changes });
  port.on('message', (message: unknown) => {
    if (message === THREAD_MESSAGES.poke) for (const fn of subscribers) fn();
    else if (message === THREAD_MESSAGES.stop)
      void dispatcher
        .stop()
        .then(() => handle.close())
        .finally(() => port.postMessage(THREAD_MESSAGES.stopped));
  });
  logger.info('webhook: the dispatcher sends from its own thread');
  port.postMessage(THREAD_MESSAGES.ready);
} catch (err) {
  logger.warn({ error: describeError(err) }, 'webhook: the dispatcher thread cannot connect');
  port.postMessage(THREAD_MESSAGES.failed);
}
