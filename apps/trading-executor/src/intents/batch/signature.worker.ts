/**
 * Worker thread of the intent batches' signature checks: receives `{ id, items: [digest, signature,
 * address][] }` and answers `{ id, valid: boolean[] }`, so recovering the keys of a large batch runs on
 * another core while the main thread serves the queue and the database.
 */
import { parentPort } from 'node:worker_threads';
import { DigestSignatureVerifier } from '@paper/exchange-signing';
import type { Hex } from 'viem';

export interface SignatureRequest {
  id: number;
  items: readonly (readonly [Hex, Hex, string])[];
}

const verifier = new DigestSignatureVerifier();
parentPort?.on('message', (request: SignatureRequest) => {
  parentPort!.postMessage({
    id: request.id,
    valid: request.items.map(([digest, signature, address]) => verifier.verify(digest, signature, address)),
  });
});
