/** A snapshot of the database (pg_current_snapshot): which transactions it sees. */
export interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  /** In progress when it was taken: not visible. */
  xip: bigint[];
}

export function parseSnapshot(text: string): Snapshot {
  const [xmin = '0', xmax = '0', xip = ''] = text.split(':');
  return { xmin: BigInt(xmin), xmax: BigInt(xmax), xip: xip === '' ? [] : xip.split(',').map(BigInt) };
}

/** Whether a transaction's writes are visible in the snapshot (it committed before it was taken). */
export const visibleIn = (s: Snapshot, xid: bigint): boolean =>
  xid < s.xmin || (xid < s.xmax && !s.xip.includes(xid));
