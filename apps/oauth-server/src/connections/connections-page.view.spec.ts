import { renderConnectionsPage } from './connections-page.view';
import type { ConnectionSummary, SessionKeySummary } from './connections.service';

const guardrails = {
  maxMarginPerTradeUsd: '50',
  maxLeverage: 300,
  maxDailyNotionalUsd: '40000',
  maxOpenPositions: 3,
  allowedMarkets: ['BTC' as const],
  requireConfirmation: true,
};
const keyOf = (address: string, state: SessionKeySummary['state'], grantId: string): SessionKeySummary => ({
  address,
  label: 'Agent',
  guardrails,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: new Date('2026-01-08T00:00:00Z'),
  state,
  grantId,
});
const active = keyOf(`0x${'a'.repeat(40)}`, 'active', 'g1');
const revoked = keyOf(`0x${'b'.repeat(40)}`, 'revoked', 'g0');
const connection: ConnectionSummary = {
  grantId: 'g1',
  clientId: 'client-1',
  clientName: 'Agent',
  redirectHosts: ['this computer (127.0.0.1)'],
  scopes: ['trade:read', 'trade:write', 'offline_access'],
  connectedAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: new Date('2026-01-08T00:00:00Z'),
  sessionKey: active,
};
const page = () =>
  renderConnectionsPage({
    wallet: `0x${'1'.repeat(40)}`,
    formToken: 't',
    connections: [connection],
    keys: [active, revoked],
    notice: null,
    paperMode: true,
  });

describe('connections page', () => {
  it('names permissions in the consent page words, not scope ids', () => {
    const html = page();
    expect(html).toContain('Allowed to: See your account, Trade within your limits');
    expect(html).not.toMatch(/trade:read|trade:write|offline_access/);
  });

  it('shows each trading key once: the active one inside its connection, the others under earlier keys', () => {
    const html = page();
    expect(html.split(active.address).length - 1).toBe(3); // heading, revoke form action and its label
    expect(html.indexOf(active.address)).toBeLessThan(html.indexOf('Revoke connection'));
    expect(html).toContain('Earlier trading keys');
    expect(html.indexOf(revoked.address)).toBeGreaterThan(html.indexOf('Earlier trading keys'));
  });

  it('describes the preview guardrail as what is enforced', () => {
    const html = page();
    expect(html).toContain('<dt>Preview before each open</dt><dd>Required</dd>');
    expect(html).toContain('every open must present a quote from a preview of the same trade, valid for 3 minutes');
    expect(html).not.toMatch(/confirmation/i);
  });
});
