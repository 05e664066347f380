import { redirectUriMatches } from './loopback-redirect';

describe('redirect URI matching', () => {
  const registered = [
    'https://claude.ai/api/mcp/auth_callback',
    'http://127.0.0.1:33418/callback',
    'http://localhost:6274/oauth/callback',
  ];

  it('accepts exactly registered URIs', () => {
    expect(redirectUriMatches('https://claude.ai/api/mcp/auth_callback', registered)).toBe(true);
    expect(redirectUriMatches('http://localhost:6274/oauth/callback', registered)).toBe(true);
  });

  it('accepts a registered loopback URI on another port', () => {
    expect(redirectUriMatches('http://127.0.0.1:50123/callback', registered)).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1/callback', registered)).toBe(true);
    expect(redirectUriMatches('http://localhost:9999/oauth/callback', registered)).toBe(true);
  });

  it('refuses anything that differs beyond the loopback port', () => {
    expect(redirectUriMatches('https://claude.ai/api/mcp/auth_callback/', registered)).toBe(false);
    expect(redirectUriMatches('https://claude.ai:8443/api/mcp/auth_callback', registered)).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:50123/other', registered)).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:50123/callback?x=1', registered)).toBe(false);
    expect(redirectUriMatches('http://localhost:33418/callback', registered)).toBe(false);
    expect(redirectUriMatches('https://127.0.0.1:33418/callback', registered)).toBe(false);
    expect(redirectUriMatches('http://127.0.0.2:33418/callback', registered)).toBe(false);
    expect(redirectUriMatches('http://evil.example:6274/oauth/callback', registered)).toBe(false);
  });
});
