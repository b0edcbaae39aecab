import type { ColumnType } from 'kysely';

/** Timestamps are read as Date and may be written as Date, ISO string or SQL default. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
