/**
 * Calls made while other deliveries are in flight are served together (group commit): a call waits for
 * the next turn of the event loop, and while a batch statement runs, later calls gather and go as the
 * next batch when it returns (a full batch of `max` goes at once). Each caller gets its own answer. A
 * lone delivery waits for nothing; under load the batches grow with the load, so loading, claiming and
 * recording cost a few statements per batch instead of one per delivery.
 */
export class CoalescedCalls<K, V> {
  private pending: { key: K; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private running = 0;

  constructor(
    private readonly batch: (keys: K[]) => Promise<Map<K, V>>,
    private readonly max = 256,
  ) {}

  call(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      this.pending.push({ key, resolve, reject });
      if (this.pending.length >= this.max) this.flush();
      else if (!this.scheduled && this.running === 0) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const callers = this.pending.splice(0, this.max);
    if (callers.length === 0) return;
    this.running += 1;
    this.batch([...new Set(callers.map((c) => c.key))])
      .then(
        (answers) => {
          for (const c of callers) c.resolve(answers.get(c.key));
        },
        (error: unknown) => {
          for (const c of callers) c.reject(error);
        },
      )
      .finally(() => {
        this.running -= 1;
        if (this.running === 0 && this.pending.length > 0 && !this.scheduled) this.flush();
      });
  }
}
