import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './ssrf-guard';

export interface PinnedRequestOptions {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Response bytes kept; the rest is discarded. */
  maxResponseBytes?: number;
}

export interface PinnedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request to a checked target, connecting only to the address the guard approved (the host
 * name is still used for the Host header and TLS). Redirects are never followed: a 3xx is returned as is.
 */
export function pinnedRequest(target: CheckedTarget, options: PinnedRequestOptions): Promise<PinnedResponse> {
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) {
      (callback as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
  const client = target.url.protocol === 'https:' ? https : http;
  const limit = options.maxResponseBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target.url,
      { method: options.method, headers: options.headers, lookup, agent: false, timeout: options.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < limit) chunks.push(chunk.subarray(0, limit - size));
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.end(options.body);
  });
}
