import { Logger } from '@nestjs/common';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DigestSignatureVerifier } from '@paper/exchange-signing';
import type { Hex } from 'viem';
import type { SignatureRequest } from './signature.worker';

/** A signature to check: the digest, the 65-byte signature and the address that must have made it. */
export type SignatureItem = readonly [digest: Hex, signature: Hex, address: string];

/** Below this many signatures a batch checks them inline: a thread hop would cost more than it saves. */
const INLINE_BELOW = 8;

/**
 * Checks the signatures of an intent batch (ecrecover semantics, `DigestSignatureVerifier`). Small
 * batches (low load: one intent) are checked on the calling thread, with no added latency; large ones go
 * to one worker thread, started on the first large batch (an idle executor has none), so key recovery,
 * the dearest step per intent, runs beside the main thread's queue and database work.
 */
export class SignatureChecks {
  private readonly logger = new Logger('SignatureChecks');
  private readonly inline = new DigestSignatureVerifier();
  private worker?: Worker;
  private ready = false;
  private next = 0;
  private readonly pending = new Map<number, { resolve(valid: boolean[]): void; reject(error: Error): void }>();

  async verifyAll(items: readonly SignatureItem[]): Promise<boolean[]> {
    if (items.length < INLINE_BELOW) return this.verifyInline(items);
    if (!this.ready) {
      this.start();
      return this.verifyInline(items);
    }
    const id = (this.next += 1);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker!.postMessage({ id, items } satisfies SignatureRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    await worker?.terminate();
  }

  private verifyInline(items: readonly SignatureItem[]): boolean[] {
    return items.map(([digest, signature, address]) => this.inline.verify(digest, signature, address));
  }

  private start(): void {
    if (this.worker) return;
    // Built code runs the compiled worker; sources (development, tests) compile it on load like the app.
    const compiled = __filename.endsWith('.js');
    const file = path.join(__dirname, `signature.worker.${compiled ? 'js' : 'ts'}`);
    const execArgv = compiled ? [] : ['-r', path.resolve(__dirname, '../../../../../tools/dev/register.cjs')];
    const worker = new Worker(file, { execArgv });
    worker.unref();
    worker.on('online', () => (this.ready = true));
    worker.on('message', (answer: { id: number; valid: boolean[] }) => {
      const waiter = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      waiter?.resolve(answer.valid);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`signature worker exited with code ${code}`)));
    this.worker = worker;
  }

  /** A worker that died fails its pending checks (their batches are retried) and is started again on demand. */
  private fail(error: Error): void {
    if (this.worker) this.logger.warn(`signature worker stopped: ${error.message}`);
    this.worker = undefined;
    this.ready = false;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}
