import { runFaucet } from './faucet';

// An unreachable database: a refusal must come before any connection attempt.
const NO_DB = 'postgres://nobody@127.0.0.1:1/none';
const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('faucet CLI outside paper mode', () => {
  it('refuses with PAPER_MODE=false, saying why and how to fix it', async () => {
    await expect(runFaucet([WALLET], NO_DB, { PAPER_MODE: 'false' })).rejects.toThrow(
      /only in paper mode, and PAPER_MODE is false.*Set PAPER_MODE=true/,
    );
    await expect(runFaucet([WALLET], NO_DB, { PAPER_MODE: '0' })).rejects.toThrow(/PAPER_MODE is false/);
  });

  it('refuses with NODE_ENV=production, like the /dev endpoints', async () => {
    await expect(runFaucet([WALLET], NO_DB, { NODE_ENV: 'production' })).rejects.toThrow(
      /outside production, and NODE_ENV is production/,
    );
  });

  it('refuses an unreadable PAPER_MODE instead of guessing', async () => {
    await expect(runFaucet([WALLET], NO_DB, { PAPER_MODE: 'maybe' })).rejects.toThrow(/PAPER_MODE must be true\/false/);
  });

  it('in paper mode (the default) it goes on to validate the arguments', async () => {
    await expect(runFaucet(['nope'], NO_DB, {})).rejects.toThrow(/usage: faucet/);
  });
});
