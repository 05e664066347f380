import { AlertsErrorCode } from '@paper/contracts';
import { CreateWatchDto, UpdateWatchDto } from '../watches/watch.dto';
import { AlertsException } from '../errors/alerts.exception';
import { validateDto } from './validation';

async function failure(cls: new () => object, plain: unknown): Promise<AlertsException> {
  try {
    await validateDto(cls, plain);
  } catch (error) {
    expect(error).toBeInstanceOf(AlertsException);
    return error as AlertsException;
  }
  throw new Error('validation passed');
}

const address = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('validateDto', () => {
  it('names unknown keys by their full path, before any other problem', async () => {
    const error = await failure(CreateWatchDto, {
      address: 'bad',
      rules: { liquidation: { belowPct: 99, extra: 1 }, other: true },
    });
    expect(error.code).toBe(AlertsErrorCode.UnknownKey);
    expect(error.status).toBe(400);
    expect(error.message).toBe('Unknown key "rules.other". Unknown key "rules.liquidation.extra".');
  });

  it('names every invalid field by its full path', async () => {
    const error = await failure(UpdateWatchDto, {
      rules: { liquidation: { belowPct: 0 }, rewards: { aboveUsdc: 'x' } },
    });
    expect(error.code).toBe(AlertsErrorCode.ValidationFailed);
    expect(error.message).toContain('rules.liquidation.belowPct must not be less than 0.001');
    expect(error.message).toContain('rules.rewards.aboveUsdc must be a number');
  });

  it('treats null as a value to validate, not as a missing field', async () => {
    expect((await failure(UpdateWatchDto, { rules: { balance: { changeUsd: null } } })).message).toContain(
      'rules.balance.changeUsd',
    );
    expect((await failure(CreateWatchDto, { address, rules: null })).message).toContain('rules must be an object');
    await expect(validateDto(UpdateWatchDto, { label: null })).resolves.toMatchObject({ label: null });
  });

  it('refuses non-object input and prototype keys', async () => {
    expect((await failure(CreateWatchDto, [])).message).toBe('The request body must be a JSON object.');
    expect(
      (await failure(CreateWatchDto, JSON.parse(`{"address":"${address}","rules":{"__proto__":{"x":1}}}`))).message,
    ).toBe('Unknown key "rules.__proto__".');
  });

  it('refuses input nested deeper than 64 levels with 400 validation_failed, however deep (no stack overflow)', async () => {
    const nest = (depth: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i += 1) value = { a: value };
      return value;
    };
    for (const depth of [65, 5000, 100_000]) {
      const error = await failure(CreateWatchDto, { address, rules: nest(depth) });
      expect([error.code, error.status]).toEqual([AlertsErrorCode.ValidationFailed, 400]);
      expect(error.message).toContain('more than 64 levels deep');
    }
    // Within the bound, the ordinary rules answer.
    expect((await failure(CreateWatchDto, { address, extra: nest(60) })).code).toBe(AlertsErrorCode.UnknownKey);
  });

  it('accepts the inclusive range ends', async () => {
    const dto = await validateDto(UpdateWatchDto, {
      rules: {
        liquidation: { belowPct: 0.001 },
        balance: { changeUsd: 1e9 },
        sessionKey: { withinDays: 30 },
        rewards: { aboveUsdc: 0.01 },
      },
    });
    expect(dto.rules?.sessionKey?.withinDays).toBe(30);
  });
});
