import { createHash } from 'node:crypto';
import { readSync, writeSync } from 'node:fs';

/* The snapshot file's reads and writes (snapshot-file.ts), each through a buffer of its own. */

export const BUFFER = 1 << 20;

/** A file written through a buffer of 1 MiB. */
export class FileSink {
  private readonly buffer = Buffer.allocUnsafe(BUFFER);
  private used = 0;
  bytes = 0;
  readonly hash = createHash('sha256');
  constructor(private readonly fd: number) {}
  write = (b: Uint8Array) => {
    this.bytes += b.byteLength;
    this.hash.update(b);
    if (b.byteLength > BUFFER / 2) {
      this.flush();
      writeSync(this.fd, b);
      return;
    }
    if (this.used + b.byteLength > BUFFER) this.flush();
    this.buffer.set(b, this.used);
    this.used += b.byteLength;
  };
  flush() {
    if (this.used > 0) writeSync(this.fd, this.buffer, 0, this.used);
    this.used = 0;
  }
}

/** A file read through a buffer of 1 MiB. */
export class FileSource {
  private readonly buffer = Buffer.allocUnsafe(BUFFER);
  private start = 0;
  private end = 0;
  private position = 0;
  constructor(private readonly fd: number) {}
  read = (into: Uint8Array) => {
    let offset = 0;
    while (offset < into.byteLength) {
      const need = into.byteLength - offset;
      if (this.start === this.end) {
        if (need >= BUFFER) {
          const n = readSync(this.fd, into, offset, need, this.position);
          if (n <= 0) throw new Error('the snapshot file is truncated');
          this.position += n;
          offset += n;
          continue;
        }
        this.end = readSync(this.fd, this.buffer, 0, BUFFER, this.position);
        if (this.end <= 0) throw new Error('the snapshot file is truncated');
        this.position += this.end;
        this.start = 0;
      }
      const n = Math.min(need, this.end - this.start);
      into.set(this.buffer.subarray(this.start, this.start + n), offset);
      this.start += n;
      offset += n;
    }
  };
}
