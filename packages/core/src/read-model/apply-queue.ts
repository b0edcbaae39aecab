/**
 * The apply queue: ids of projects to re-read, applied one batch at a time so that a later
 * read always wins; the ids that arrive while a batch is applied are read together in the next
 * (one statement for many writes). Each caller's promise settles with the batch that took its ids.
 */
export class ApplyQueue {
  private pending = new Set<string>();
  private pendingDone: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private applying = false;

  constructor(private readonly applyNow: (ids: string[]) => Promise<void>) {}

  add(ids: string[]): Promise<void> {
    for (const id of ids) this.pending.add(id);
    const done = new Promise<void>((resolve, reject) => this.pendingDone.push({ resolve, reject }));
    void this.pump();
    return done;
  }

  private async pump() {
    if (this.applying) return;
    this.applying = true;
    try {
      while (this.pending.size > 0) {
        const ids = [...this.pending];
        const done = this.pendingDone;
        this.pending = new Set();
        this.pendingDone = [];
        try {
          await this.applyNow(ids);
          for (const d of done) d.resolve();
        } catch (err) {
          for (const d of done) d.reject(err);
        }
      }
    } finally {
      this.applying = false;
    }
  }
}
