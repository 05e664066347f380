import { sweepLpExcess } from './lp';

const U = 1_000_000n;

describe('sweepLpExcess', () => {
  it('sweeps everything above 5,000,000 USDC to stakers', () => {
    expect(sweepLpExcess(5_000_000n * U + 1n)).toEqual({ lpAfterMicro: 5_000_000n * U, sweptMicro: 1n });
    expect(sweepLpExcess(7_250_000n * U)).toEqual({ lpAfterMicro: 5_000_000n * U, sweptMicro: 2_250_000n * U });
  });

  it('leaves an LP at or below the cap alone', () => {
    expect(sweepLpExcess(5_000_000n * U)).toEqual({ lpAfterMicro: 5_000_000n * U, sweptMicro: 0n });
    expect(sweepLpExcess(10n, 100n)).toEqual({ lpAfterMicro: 10n, sweptMicro: 0n });
  });
});
