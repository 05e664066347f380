import { baseEnvShape } from './env-schema';

describe('TRUSTED_PROXIES', () => {
  const parse = (value: string | undefined) => baseEnvShape.TRUSTED_PROXIES.safeParse(value);

  it('trusts no proxy by default', () => {
    expect(parse(undefined)).toEqual({ success: true, data: [] });
  });

  it('takes addresses, CIDR ranges and Express’s named ranges, comma-separated', () => {
    expect(parse('127.0.0.1, 10.0.0.0/8,fd00::/8 ,::1,loopback').data).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it.each(['localhost', '10.0.0.0/33', '::1/129', '10.0.0.1/8/8', '10.0.0.0/x', '*', '300.1.1.1'])(
    'refuses %s',
    (value) => {
      expect(parse(value).success).toBe(false);
    },
  );
});
