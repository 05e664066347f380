import { clientIdHost, redirectHostLabel } from './redirect-host';

describe('redirect host in words', () => {
  it('names the host of a web app, with a non-default port', () => {
    expect(redirectHostLabel('https://claude.ai/api/mcp/auth_callback')).toBe('claude.ai');
    expect(redirectHostLabel('https://app.example:8443/cb')).toBe('app.example:8443');
  });

  it('says "this computer" for loopback redirects, without the port (any port is accepted there)', () => {
    expect(redirectHostLabel('http://127.0.0.1:9/callback')).toBe('this computer (127.0.0.1)');
    expect(redirectHostLabel('http://localhost:6274/oauth/callback')).toBe('this computer (localhost)');
    expect(redirectHostLabel('https://localhost:6274/oauth/callback')).toBe('localhost:6274');
  });

  it('never fails on a malformed URI', () => {
    expect(redirectHostLabel('not a url')).toBe('an unknown address');
  });

  it('names the host of a client ID metadata document client, and nothing for a registered client', () => {
    expect(clientIdHost('https://claude.ai/oauth/mcp-oauth-client-metadata')).toBe('claude.ai');
    expect(clientIdHost('https://docs.example:8443/client.json')).toBe('docs.example:8443');
    expect(clientIdHost('4f7c2d8e-registered-client')).toBeUndefined();
    expect(clientIdHost('http://plain.example/client.json')).toBeUndefined();
  });
});
