import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { Database } from '../tables.ts';

// COPY over node-postgres without another package: a query object with a `submit` method is sent
// as it is (pg's "Submittable"), and pg hands it the messages of the answer; these two speak
// the copy sub-protocol (PostgreSQL's "COPY Operations" in the frontend/backend protocol).

/** What pg passes a Submittable: its connection, to send messages on. */
interface Connection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

abstract class CopyQuery<T> {
  protected error: Error | undefined;
  protected rows = 0;
  readonly done: Promise<T>;
  #settle!: { resolve: (value: T) => void; reject: (err: Error) => void };

  constructor(readonly text: string) {
    this.done = new Promise<T>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // awaited by the caller; this only keeps a failure from being reported unhandled meanwhile
    this.done.catch(() => {});
  }

  protected abstract result(): T;

  submit(connection: Connection): void {
    connection.query(this.text);
  }
  handleCommandComplete(msg: { text: string }): void {
    this.rows = Number.parseInt(msg.text.split(' ').at(-1) ?? '0', 10);
  }
  handleError(err: Error): void {
    this.error ??= err;
    this.#settle.reject(err);
  }
  handleReadyForQuery(): void {
    if (this.error) this.#settle.reject(this.error);
    else this.#settle.resolve(this.result());
  }
  handleCopyInResponse(_connection: Connection): void {}
  handleCopyData(_msg: { chunk: Buffer }, _connection: Connection): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}
}

/** `COPY … FROM STDIN` of `data` (COPY's text format); resolves to the rows written. */
class CopyIn extends CopyQuery<number> {
  constructor(
    text: string,
    private readonly data: Uint8Array,
  ) {
    super(text);
  }
  override handleCopyInResponse(connection: Connection): void {
    if (this.data.byteLength > 0)
      connection.sendCopyFromChunk(Buffer.from(this.data.buffer, this.data.byteOffset, this.data.byteLength));
    connection.endCopyFrom();
  }
  protected result(): number {
    return this.rows;
  }
}

/** `COPY … TO STDOUT`: every chunk of the answer to `onData`; resolves to the rows read. */
class CopyOut extends CopyQuery<number> {
  constructor(
    text: string,
    private readonly onData: (chunk: Buffer) => void,
  ) {
    super(text);
  }
  override handleCopyData(msg: { chunk: Buffer }): void {
    this.onData(msg.chunk);
  }
  protected result(): number {
    return this.rows;
  }
}

export function copyIn(client: pg.PoolClient, text: string, data: Uint8Array): Promise<number> {
  const query = new CopyIn(text, data);
  client.query(query as unknown as pg.QueryConfig);
  return query.done;
}

export function copyOut(
  client: pg.PoolClient,
  text: string,
  onData: (chunk: Buffer) => void,
): Promise<number> {
  const query = new CopyOut(text, onData);
  client.query(query as unknown as pg.QueryConfig);
  return query.done;
}

/** Kysely over one checked-out client, so that its queries and the copies share a transaction. */
export function onClient(client: pg.PoolClient): Kysely<Database> {
  const shared = {
    query: (sql: string, parameters: readonly unknown[]) => client.query(sql, parameters as unknown[]),
    release() {},
  } as unknown as PostgresPoolClient;
  const pool: PostgresPool = { connect: async () => shared, end: async () => {} };
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
