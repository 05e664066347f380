import { depositSchema, faucetSchema, parseBody } from './dev-funding.dto';
import { DevFundingError } from './dev-funding.exception';

describe('dev funding bodies', () => {
  it('accepts amounts as decimal strings or numbers', () => {
    expect(
      parseBody(faucetSchema, { wallet: '0x52908400098527886E0F7030069857D2E4169EE7', usdc: 250, eth: '0.1' }),
    ).toEqual({
      wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
      usdc: '250',
      eth: '0.1',
    });
  });

  it('refuses a bad wallet, a missing or out-of-range amount and unknown fields with a 400 naming the field', () => {
    const fail = (schema: typeof faucetSchema | typeof depositSchema, body: unknown) => {
      try {
        parseBody(schema, body);
      } catch (error) {
        expect(error).toBeInstanceOf(DevFundingError);
        expect((error as DevFundingError).status).toBe(400);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(fail(faucetSchema, { wallet: 'nope' })).toMatch(/wallet/);
    expect(fail(depositSchema, { wallet: '0x52908400098527886E0F7030069857D2E4169EE7' })).toMatch(
      /usdc must be a positive decimal amount/,
    );
    expect(fail(faucetSchema, { wallet: '0x52908400098527886E0F7030069857D2E4169EE7', usdc: '2000000' })).toMatch(
      /at most 1000000/,
    );
    expect(fail(faucetSchema, { wallet: '0x52908400098527886E0F7030069857D2E4169EE7', extra: 1 })).toMatch(
      /Invalid request/,
    );
    expect(fail(faucetSchema, undefined)).toMatch(/wallet/);
  });
});
