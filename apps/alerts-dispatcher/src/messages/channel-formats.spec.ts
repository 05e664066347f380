import type { AlertForDelivery } from '@paper/alerts-data';
import { DISCORD_LIMITS, TELEGRAM_TEXT_LIMIT } from '@paper/alerts-delivery';
import { describeAlert } from './alert-message';
import { alertWebhookEvent, discordAlertMessage, escapeDiscordMarkdown, telegramAlertText } from './channel-formats';

const alert = (overrides: Partial<AlertForDelivery> = {}): AlertForDelivery => ({
  alertId: '6f1c7d4e-0000-4000-8000-000000000001',
  eventId: 'evt_abc',
  kind: 'liquidation_risk',
  wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
  details: {
    positionId: '7',
    market: 'BTC',
    side: 'long',
    leverage: 100,
    marginUsd: 100,
    entryPrice: 100000,
    markPrice: 99400,
    bustPrice: 99047.1,
    distancePct: 0.355,
    belowPct: 0.5,
  },
  occurredAt: new Date('2030-01-01T00:00:00Z'),
  createdAt: new Date('2030-01-01T00:00:01Z'),
  watchId: 'a0000000-0000-4000-8000-000000000001',
  watchLabel: 'main',
  watchRole: 'own',
  ...overrides,
});

describe('alert messages', () => {
  it('names the facts of each kind', () => {
    const m = describeAlert(alert());
    expect(m.title).toBe('Liquidation risk: BTC long 100x');
    expect(m.lines).toContain('Distance to liquidation 0.355% (alert below 0.5%)');
    expect(m.lines[0]).toBe('Wallet 0x52908400098527886e0f7030069857d2e4169ee7 (main, own)');
    expect(m.lines).toContain('Mark 99,400 · liquidation price 99,047.1 · entry 100,000');
    expect(m.lines.at(-1)).toBe('At 1 Jan 2030, 00:00:00 UTC');
    expect(m.marker).toBe('🔴');
    expect(
      describeAlert(
        alert({
          kind: 'balance_change',
          details: { previousUsd: '1000', currentUsd: '900', changeUsd: '-100', thresholdUsd: 50 },
        }),
      ).title,
    ).toBe('Balance changed by -100 USDC');
    expect(
      describeAlert(
        alert({ kind: 'market_status', wallet: null, details: { market: 'ETH', from: 'open', to: 'paused' } }),
      ).title,
    ).toBe('ETH market is now paused');
  });

  it('keeps Discord messages within content, embed and total limits, and escapes markdown in user text', () => {
    const huge = alert({ watchLabel: '*'.repeat(10_000), details: { ...alert().details, market: 'x'.repeat(5000) } });
    const m = discordAlertMessage(huge);
    expect(m.content!.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
    expect(m.embeds!.length).toBeLessThanOrEqual(DISCORD_LIMITS.embeds);
    const total = m.embeds!.reduce(
      (n, e) => n + (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0),
      0,
    );
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    expect(m.embeds![0]!.title!.length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(escapeDiscordMarkdown('a*b_c`d|e>f~g\\')).toBe('a\\*b\\_c\\`d\\|e\\>f\\~g\\\\');
    expect(discordAlertMessage(alert({ watchLabel: '**bold** @everyone' })).embeds![0]!.description).toContain(
      '\\*\\*bold\\*\\* @everyone',
    );
  });

  it('escapes Telegram HTML and stays within 4096 characters', () => {
    const text = telegramAlertText(alert({ watchLabel: '<script>&' }));
    expect(text.startsWith('<b>🔴 Liquidation risk: BTC long 100x</b>')).toBe(true);
    expect(text).not.toContain('best effort');
    expect(text).not.toContain('bust');
    expect(text).toContain('(&lt;script&gt;&amp;, own)');
    expect(telegramAlertText(alert({ watchLabel: '<'.repeat(10_000) })).length).toBeLessThanOrEqual(
      TELEGRAM_TEXT_LIMIT,
    );
  });

  it('builds the webhook body from stable fields only (identical on every attempt)', () => {
    const a = alert();
    const body = alertWebhookEvent(a);
    expect(body).toEqual({
      id: 'evt_abc',
      type: 'alert.liquidation_risk',
      kind: 'liquidation_risk',
      wallet: a.wallet,
      occurredAt: '2030-01-01T00:00:00.000Z',
      details: a.details,
      createdAt: '2030-01-01T00:00:01.000Z',
      data: {
        alertId: a.alertId,
        title: 'Liquidation risk: BTC long 100x',
        watch: { id: a.watchId, label: 'main', role: 'own' },
      },
    });
    expect(JSON.stringify(alertWebhookEvent(a))).toBe(JSON.stringify(body));
  });
});
