import type { IntentResult } from '@paper/contracts';

/** The latest results this process stored, so a wake-up for an intent a batch already ran is answered from memory. */
export class RecentResults {
  private readonly results = new Map<string, IntentResult>();

  constructor(private readonly capacity = 20_000) {}

  get(id: string): IntentResult | undefined {
    return this.results.get(id);
  }

  set(result: IntentResult): void {
    if (this.results.size >= this.capacity) this.results.delete(this.results.keys().next().value!);
    this.results.set(result.intentId, result);
  }
}

interface Waiter {
  resolve(result: IntentResult | null): void;
  reject(error: Error): void;
}

/** Callers waiting for intents of this process to reach a final state (or to be found unknown). */
export class IntentWaiters {
  private readonly waiting = new Map<string, Waiter[]>();

  get size(): number {
    return this.waiting.size;
  }

  ids(): string[] {
    return [...this.waiting.keys()];
  }

  /** Waits for `id`; rejects after `timeoutMs` (the intent stays queued and runs later). */
  wait(id: string, timeoutMs: number): Promise<IntentResult | null> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.drop(id, waiter);
        reject(new Error(`intent ${id} is still queued after ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.waiting.set(id, [...(this.waiting.get(id) ?? []), waiter]);
    });
  }

  settle(id: string, result: IntentResult | null): void {
    const list = this.waiting.get(id);
    if (!list) return;
    this.waiting.delete(id);
    for (const w of list) w.resolve(result);
  }

  rejectAll(error: Error): void {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const w of all) w.reject(error);
  }

  private drop(id: string, waiter: Waiter): void {
    const rest = (this.waiting.get(id) ?? []).filter((w) => w !== waiter);
    if (rest.length > 0) this.waiting.set(id, rest);
    else this.waiting.delete(id);
  }
}
