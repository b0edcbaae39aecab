/*
 * A standby's replay lag, in bytes and in seconds (docs/operating.md#lag). Bytes: the
 * primary's pg_current_wal_lsn() minus the standby's pg_last_wal_replay_lsn(). Seconds: how
 * long ago the primary was first seen at a WAL position the standby has not replayed yet, from
 * the primary's positions sampled every poll. pg_last_xact_replay_timestamp() is not used: on
 * a primary that writes nothing it keeps growing although the standby has replayed everything.
 */

/** A WAL position ('16/B374D848') as a number of bytes. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!m) throw new Error(`not a WAL position: "${text}"`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

interface Sample {
  at: number;
  lsn: bigint;
}

/** The primary's WAL positions over the last `keepMs`, oldest first. */
export class PrimaryProgress {
  private samples: Sample[] = [];

  constructor(private readonly keepMs: number) {}

  record(at: number, lsn: bigint): void {
    const last = this.samples.at(-1);
    // only a position the primary moved to: the first time it was seen there is what counts
    if (!last || lsn > last.lsn) this.samples.push({ at, lsn });
    while (this.samples.length > 2 && this.samples[1]!.at < at - this.keepMs) this.samples.shift();
  }

  /** The newest position seen (undefined before the first). */
  get latest(): bigint | undefined {
    return this.samples.at(-1)?.lsn;
  }

  /** The position the primary was at `ms` ago, as far as the samples tell (the oldest kept at most). */
  at(ms: number, now: number): bigint | undefined {
    let found: bigint | undefined;
    for (const s of this.samples) {
      if (s.at > now - ms) break;
      found = s.lsn;
    }
    return found ?? this.samples[0]?.lsn;
  }

  /** Bytes of WAL the primary has written that `replayed` lacks (0 when caught up). */
  lagBytes(replayed: bigint): number | undefined {
    const latest = this.latest;
    if (latest === undefined) return undefined;
    return latest > replayed ? Number(latest - replayed) : 0;
  }

  /** Milliseconds since the primary first stood at a position past `replayed` (0 when none). */
  lagMs(replayed: bigint, now: number): number | undefined {
    if (this.samples.length === 0) return undefined;
    const ahead = this.samples.find((s) => s.lsn > replayed);
    return ahead ? Math.max(0, now - ahead.at) : 0;
  }
}
