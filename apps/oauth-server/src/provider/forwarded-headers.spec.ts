import express, { type Request } from 'express';
import { dropUntrustedForwardedHeaders } from './forwarded-headers';

function request(trustProxy: string[] | false, peer: string): Request {
  const app = express();
  app.set('trust proxy', trustProxy);
  return {
    app,
    socket: { remoteAddress: peer },
    headers: {
      host: 'auth.example',
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      forwarded: 'for=203.0.113.9;proto=https',
    },
  } as unknown as Request;
}

describe('forwarded headers before the provider', () => {
  it('removes them from a caller that is not a trusted proxy', () => {
    const req = request(['10.0.0.0/8'], '198.51.100.4');
    dropUntrustedForwardedHeaders(req);
    expect(req.headers).toEqual({ host: 'auth.example' });
  });

  it('removes them when no proxy is trusted (the default)', () => {
    const req = request(false, '127.0.0.1');
    dropUntrustedForwardedHeaders(req);
    expect(req.headers['x-forwarded-proto']).toBeUndefined();
  });

  it('keeps them from a trusted proxy', () => {
    const req = request(['10.0.0.0/8'], '10.1.2.3');
    dropUntrustedForwardedHeaders(req);
    expect(req.headers['x-forwarded-proto']).toBe('https');
    expect(req.headers['x-forwarded-for']).toBe('203.0.113.9');
  });
});
