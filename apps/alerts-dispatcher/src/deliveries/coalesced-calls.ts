/**
 * Calls made while the event loop is busy with other deliveries are served together: every key asked for
 * before the next turn of the loop (at most `max` of them) goes to one batch call, and each caller gets
 * its own answer. With many deliveries in flight, loading, claiming and recording them costs one
 * statement per batch instead of one per delivery; a lone delivery waits for nothing.
 */
export class CoalescedCalls<K, V> {
  private pending: { key: K; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly batch: (keys: K[]) => Promise<Map<K, V>>,
    private readonly max = 256,
  ) {}

  call(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      this.pending.push({ key, resolve, reject });
      if (this.pending.length >= this.max) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const callers = this.pending.splice(0);
    if (callers.length === 0) return;
    this.batch([...new Set(callers.map((c) => c.key))]).then(
      (answers) => {
        for (const c of callers) c.resolve(answers.get(c.key));
      },
      (error: unknown) => {
        for (const c of callers) c.reject(error);
      },
    );
  }
}
