import { parseBody } from '../pages/parse-body';
import { approvalRequestBody, challengeBody } from './consent.dto';

const guardrails = {
  maxMarginPerTradeUsd: '100',
  maxLeverage: 200,
  maxDailyNotionalUsd: null,
  maxOpenPositions: 5,
  allowedMarkets: ['BTC', 'ETH'],
  requireConfirmation: true,
};

describe('consent request bodies', () => {
  it('accepts limits with "no limit" as null and lower-cases wallets', () => {
    expect(parseBody(approvalRequestBody, { guardrails, expiresInDays: 30 }).guardrails).toEqual(guardrails);
    expect(parseBody(challengeBody, { wallet: '0xABCDEF0000000000000000000000000000000001' }).wallet).toBe(
      '0xabcdef0000000000000000000000000000000001',
    );
  });

  it.each([
    [{ guardrails, expiresInDays: 31 }, /^Key lifetime: .*30/],
    [{ guardrails, expiresInDays: 0 }, /^Key lifetime: /],
    [{ guardrails: { ...guardrails, maxLeverage: 1001 } }, /^Maximum leverage: /],
    [
      { guardrails: { ...guardrails, maxMarginPerTradeUsd: '0' }, expiresInDays: 7 },
      /^Maximum margin per trade: must be more than 0\.$/,
    ],
    [
      { guardrails: { ...guardrails, maxMarginPerTradeUsd: '1.1234567' }, expiresInDays: 7 },
      /^Maximum margin per trade: must be a USDC amount/,
    ],
    [
      { guardrails: { ...guardrails, allowedMarkets: [] }, expiresInDays: 7 },
      /^Markets: choose at least one market\.$/,
    ],
    [{ guardrails: { ...guardrails, canWithdraw: true }, expiresInDays: 7 }, /^Limits: unrecognized key/],
  ])('refuses %j in plain words', (body, message) => {
    expect(() => parseBody(approvalRequestBody, body)).toThrow(message);
  });

  it('refuses a malformed wallet with a 400', () => {
    expect(() => parseBody(challengeBody, { wallet: 'bob' })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_request' }),
    );
  });
});
