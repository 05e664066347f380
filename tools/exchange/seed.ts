/**
 * `npm run db:seed`: fills an empty exchange with 30 days of demo trading (hundreds of deterministic
 * wallets, opens, closes and liquidations settled with the exchange formulas, queued payouts, stakers,
 * equity history and daily stats). Refuses to touch an exchange that already has accounts.
 *
 *   node -r ./tools/dev/register.cjs tools/exchange/seed.ts [--wallets 320] [--days 30] [--seed 7] [--btc 100000] [--eth 3500]
 */
import { type Market, formatUsdc, usdc } from '@paper/exchange';
import { Pool } from 'pg';
import { Prng } from './seed/prng';
import { simulateExchange } from './seed/seed-simulation';
import { writeSeed } from './seed/seed-writer';

export interface SeedSettings {
  wallets?: number;
  days?: number;
  seed?: number;
  anchors?: Record<Market, string>;
  log?: (line: string) => void;
}

export type SeedOutcome =
  | { seeded: false; reason: string }
  | { seeded: true; accounts: number; positions: number; open: number; liquidated: number; queued: number; ms: number };

/** Seeds the exchange schema at `databaseUrl` unless it already has accounts. */
export async function seedExchange(databaseUrl: string, settings: SeedSettings = {}): Promise<SeedOutcome> {
  const log = settings.log ?? ((line: string) => console.log(line));
  const pool = new Pool({ connectionString: databaseUrl, max: 1, application_name: 'seed' });
  // A dropped connection fails the statement in progress (and so the seed); the event must not also end the process.
  pool.on('error', () => undefined);
  const started = Date.now();
  try {
    const { rows } = await pool.query(
      `SELECT (SELECT count(*) FROM exchange.accounts)::int AS accounts, (SELECT count(*) FROM exchange.positions)::int AS positions`,
    );
    if (rows[0].accounts > 0 || rows[0].positions > 0) {
      return {
        seeded: false,
        reason: `the exchange already has ${rows[0].accounts} accounts and ${rows[0].positions} positions; seeding only fills an empty exchange`,
      };
    }
    const { book } = simulateExchange({
      wallets: settings.wallets ?? 320,
      days: settings.days ?? 30,
      seed: settings.seed ?? 7,
      anchors: settings.anchors ?? { BTC: '100000', ETH: '3500' },
      now: new Date(),
    });
    const rng = new Prng(settings.seed ?? 7);
    const chain = new Map(
      [...book.wallets.keys()].map((address) => [
        address,
        { usdc: usdc(rng.logInt(1, 5000)), eth: BigInt(rng.logInt(1, 200)) * 10n ** 15n },
      ]),
    );
    const client = await pool.connect();
    client.on('error', () => undefined);
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE exchange.accounts IN EXCLUSIVE MODE');
      const again = await client.query(`SELECT 1 FROM exchange.accounts LIMIT 1`);
      if (again.rowCount) {
        await client.query('ROLLBACK');
        return { seeded: false, reason: 'another process seeded the exchange first' };
      }
      await writeSeed(client, book, chain);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    const outcome = {
      seeded: true as const,
      accounts: book.wallets.size,
      positions: book.positions.length,
      open: book.positions.filter((p) => p.status === 'open').length,
      liquidated: book.positions.filter((p) => p.status === 'liquidated').length,
      queued: book.queue.filter((q) => q.paidAt === null).length,
      ms: Date.now() - started,
    };
    log(
      `seeded ${outcome.accounts} accounts, ${outcome.positions} positions (${outcome.open} open, ${outcome.liquidated} liquidated), ` +
        `${outcome.queued} queued payouts; LP ${formatUsdc(book.pool.lpMicro)} USDC, parked ${formatUsdc(book.pool.parkedMicro)} USDC (${outcome.ms} ms)`,
    );
    return outcome;
  } finally {
    await pool.end();
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (require.main === module) {
  const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/paper';
  const num = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
  seedExchange(url, {
    wallets: num('wallets'),
    days: num('days'),
    seed: num('seed'),
    anchors: { BTC: arg('btc') ?? '100000', ETH: arg('eth') ?? '3500' },
  }).then(
    (outcome) => {
      if (!outcome.seeded) console.log(`not seeded: ${outcome.reason}`);
    },
    (error: unknown) => {
      console.error(`seed failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
