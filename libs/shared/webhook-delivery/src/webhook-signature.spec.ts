import { createHmac } from 'node:crypto';
import {
  activeSigningSecrets,
  createSigningSecret,
  signingKeyBytes,
  signWebhook,
  standardWebhookHeaders,
  verifyWebhookSignature,
} from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"id":"evt_1","type":"test"}';

  it('signs as t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const header = signWebhook(secret, body, 1_700_000_000);
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verifies its own signature within the tolerance', () => {
    const header = signWebhook(secret, body, 1_700_000_000);
    expect(verifyWebhookSignature(secret, body, header, { nowSeconds: 1_700_000_000 })).toEqual({
      valid: true,
      timestamp: 1_700_000_000,
    });
    expect(verifyWebhookSignature(secret, body, header, { nowSeconds: 1_700_000_300 }).valid).toBe(true);
  });

  it('refuses timestamps older or newer than 300 seconds', () => {
    const header = signWebhook(secret, body, 1_700_000_000);
    expect(verifyWebhookSignature(secret, body, header, { nowSeconds: 1_700_000_301 })).toEqual({
      valid: false,
      reason: 'expired',
    });
    expect(verifyWebhookSignature(secret, body, header, { nowSeconds: 1_699_999_699 })).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('refuses a changed body, another secret, or a changed timestamp', () => {
    const header = signWebhook(secret, body, 1_700_000_000);
    const now = { nowSeconds: 1_700_000_000 };
    expect(verifyWebhookSignature(secret, `${body} `, header, now)).toEqual({ valid: false, reason: 'mismatch' });
    expect(verifyWebhookSignature('whsec_other', body, header, now)).toEqual({ valid: false, reason: 'mismatch' });
    const moved = header.replace('t=1700000000', 't=1700000001');
    expect(verifyWebhookSignature(secret, body, moved, now)).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('refuses malformed headers', () => {
    for (const header of [undefined, '', 't=1700000000', 'v1=abc', 't=x,v1=' + 'a'.repeat(64), 't=1700000000,v1=zz']) {
      expect(verifyWebhookSignature(secret, body, header, { nowSeconds: 1_700_000_000 })).toEqual({
        valid: false,
        reason: 'malformed',
      });
    }
  });

  it('accepts any of several v1 entries (secret rotation)', () => {
    const good = signWebhook(secret, body, 1_700_000_000).split(',')[1];
    const header = `t=1700000000,v1=${'0'.repeat(64)},${good}`;
    expect(verifyWebhookSignature(secret, body, header, { nowSeconds: 1_700_000_000 }).valid).toBe(true);
  });

  it('creates distinct random secrets: whsec_ + 32 bytes in standard base64', () => {
    const a = createSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(signingKeyBytes(a)).toHaveLength(32);
    expect(createSigningSecret()).not.toBe(a);
  });

  it('reads base64url secrets issued earlier as the same key bytes', () => {
    const bytes = Buffer.from('fb'.repeat(32), 'hex');
    expect(signingKeyBytes(`whsec_${bytes.toString('base64url')}`)).toEqual(bytes);
    expect(signingKeyBytes(`whsec_${bytes.toString('base64')}`)).toEqual(bytes);
  });

  it('signs Standard Webhooks headers: v1,<base64 HMAC of "id.t.body"> per secret, space-separated', () => {
    const [a, b] = [createSigningSecret(), createSigningSecret()];
    const headers = standardWebhookHeaders([a, b], 'evt_1', body, 1_700_000_000);
    const sign = (s: string) =>
      createHmac('sha256', signingKeyBytes(s)).update(`evt_1.1700000000.${body}`).digest('base64');
    expect(headers).toEqual({
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': `v1,${sign(a)} v1,${sign(b)}`,
    });
    expect(signWebhook([a, b], body, 1_700_000_000).split(',')).toHaveLength(3);
  });

  it('signs with the replaced secret only while its overlap lasts', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const channel = { secret: 'whsec_new', previousSecret: 'whsec_old' };
    expect(activeSigningSecrets({ ...channel, previousSecretExpiresAt: new Date(now.getTime() + 1) }, now)).toEqual([
      'whsec_new',
      'whsec_old',
    ]);
    expect(activeSigningSecrets({ ...channel, previousSecretExpiresAt: now }, now)).toEqual(['whsec_new']);
    expect(activeSigningSecrets({ ...channel, previousSecretExpiresAt: null }, now)).toEqual(['whsec_new']);
    expect(activeSigningSecrets({ secret: 'whsec_new', previousSecret: null }, now)).toEqual(['whsec_new']);
  });
});
