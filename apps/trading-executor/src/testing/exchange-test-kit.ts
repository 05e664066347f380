import {
  INTENTS_QUEUE,
  type IntentResult,
  type OwnerActionResult,
  type SignedIntentPayload,
  type SignedOwnerActionPayload,
} from '@paper/contracts';
import { clearRedisPrefix, createMigratedDatabase, type TestDatabase } from '@paper/dev-stack';
import { type Guardrails, type Market, MARKETS, marketConfig, priceToScaled, usdc } from '@paper/exchange';
import {
  acceptIntents,
  acceptOwnerAction,
  auditLedger,
  chainBalances,
  createExchangeDataSource,
  creditChainBalance,
  transferChainBalance,
} from '@paper/exchange-data';
import {
  approvalFromGuardrails,
  depositProxyAddress,
  type IntentMessage,
  intentId,
  newOwnerAction,
  type OwnerActionMessage,
  ownerActionId,
  ownerActionMessageStrings,
  signApproval,
  signIntent,
  signOwnerAction,
} from '@paper/exchange-signing';
import type { QueueRegistry } from '@paper/nest-infra';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { tradingExecutorConfigSchema, type TradingExecutorConfig } from '../config/trading-executor.config';
import { DepositSweepService } from '../deposits/deposit-sweep.service';
import { inTransaction } from '../database/sql-transaction';
import { claimIntentsById } from '../intents/batch/intent-claim';
import { executeBatch } from '../intents/batch/intent-batch';
import { SignatureChecks } from '../intents/batch/signature-checks';
import { IntentResultsPublisher } from '../intents/intent-results.publisher';
import { IntentEngine } from '../intents/intent-engine.service';
import { ApprovalCache } from '../intents/session-key-check';
import { IntentSubmitter } from './intent-submitter';
import { IntentExpiryService } from '../intents/intent-expiry.service';
import { LiquidationService } from '../liquidations/liquidation.service';
import { DailyStatsService } from '../maintenance/daily-stats.service';
import { EquitySnapshotService } from '../maintenance/equity-snapshot.service';
import { HarvestService } from '../maintenance/harvest.service';
import { OwnerActionService } from '../owner-actions/owner-action.service';
import { PriceBook } from '../prices/price-book.service';
import { SessionKeyService } from '../session-keys/session-key.service';

export const NO_GUARDRAILS: Guardrails = {
  maxMarginPerTradeUsd: null,
  maxLeverage: null,
  maxDailyNotionalUsd: null,
  maxOpenPositions: null,
  allowedMarkets: null,
  requireConfirmation: false,
};

export interface Trader {
  wallet: string;
  ownerKey: Hex;
  sessionPrivateKey: Hex;
  sessionKey: string;
}

let nonce = 1n;

/** The executor's services wired by hand against a fresh database and a unique Redis prefix (integration tests). */
export class ExchangeTestKit {
  readonly prices: PriceBook;
  /** The intents queue (BullMQ owns its connection, so close() releases it). */
  readonly intentsQueue: Queue;
  readonly queues: Pick<QueueRegistry, 'queue'>;
  /** Publishes each batch's results on the intent-results channel of the kit's Redis prefix. */
  readonly results: IntentResultsPublisher;
  readonly engine: IntentEngine;
  readonly intents: IntentSubmitter;
  readonly sessionKeys: SessionKeyService;
  readonly liquidations: LiquidationService;
  readonly harvest: HarvestService;
  readonly deposits: DepositSweepService;
  readonly expiry: IntentExpiryService;
  readonly snapshots: EquitySnapshotService;
  readonly dailyStats: DailyStatsService;
  readonly ownerActions: OwnerActionService;

  private constructor(
    readonly database: TestDatabase,
    readonly db: DataSource,
    readonly redis: Redis,
    readonly config: TradingExecutorConfig,
  ) {
    this.prices = new PriceBook(redis, config);
    const { hostname, port } = new URL(config.REDIS_URL);
    this.intentsQueue = new Queue(INTENTS_QUEUE.queue, {
      connection: { host: hostname, port: Number(port || 6379) },
      prefix: `${config.REDIS_PREFIX}:bull`,
    });
    this.queues = {
      queue: (contract) => {
        if (contract.queue !== INTENTS_QUEUE.queue) throw new Error(`no test queue for ${contract.queue}`);
        return this.intentsQueue;
      },
    };
    this.results = new IntentResultsPublisher(redis, config);
    this.engine = new IntentEngine(db, this.prices, this.results, config);
    this.intents = new IntentSubmitter(db, this.engine, config);
    this.sessionKeys = new SessionKeyService(db);
    this.liquidations = new LiquidationService(db, config);
    this.harvest = new HarvestService(db, config);
    this.deposits = new DepositSweepService(db);
    this.expiry = new IntentExpiryService(db);
    this.snapshots = new EquitySnapshotService(db, this.prices);
    this.dailyStats = new DailyStatsService(db);
    this.ownerActions = new OwnerActionService(db, config);
  }

  static async start(env: Record<string, string> = {}): Promise<ExchangeTestKit> {
    const { database, db } = await createMigratedDatabase('paper_exec', ['exchange'], (url) =>
      createExchangeDataSource({ url, poolSize: 20, applicationName: 'executor-int-test' }),
    );
    const config = tradingExecutorConfigSchema.parse({
      DATABASE_URL: database.url,
      REDIS_PREFIX: `t${randomBytes(4).toString('hex')}`,
      // The kit publishes its prices itself (there is no ingest to wait for).
      PRICE_WARMUP_MS: '0',
      ...env,
    });
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
    return new ExchangeTestKit(database, db, redis, config);
  }

  async stop(): Promise<void> {
    await this.engine.beforeApplicationShutdown();
    await this.intents.close();
    await this.intentsQueue.close();
    await clearRedisPrefix(this.redis, this.config.REDIS_PREFIX);
    await this.db.destroy();
    await this.database.drop();
  }

  /** Accepts an intent as if it had been accepted at `acceptedAt` (ms) and runs it. */
  async executeAcceptedAt(payload: SignedIntentPayload, acceptedAt: number): Promise<IntentResult> {
    await acceptIntents(this.db, [payload]);
    await this.db.query(
      `UPDATE exchange.intents SET created_at = to_timestamp($2::double precision / 1000) WHERE id = $1`,
      [payload.intentId.toLowerCase(), acceptedAt],
    );
    return this.intents.execute(payload);
  }

  /**
   * Accepts intents and runs them as one batch in a transaction that waits for `beforeCommit` (to test
   * what other transactions see and wait for while a batch holds its locks).
   */
  async batchHolding(
    payloads: readonly SignedIntentPayload[],
    beforeCommit: () => Promise<void>,
  ): Promise<IntentResult[]> {
    await acceptIntents(this.db, payloads);
    const prices = new Map(await Promise.all(MARKETS.map(async (m) => [m, await this.prices.fresh(m)] as const)));
    return inTransaction(this.db, async (sql) => {
      const rows = await claimIntentsById(
        sql,
        payloads.map((p) => p.intentId.toLowerCase()),
      );
      const results = await executeBatch(sql, rows, {
        prices,
        now: new Date(),
        signatures: new SignatureChecks(),
        approvals: new ApprovalCache(),
      });
      await beforeCommit();
      return results;
    });
  }

  /** Accepts an owner action as if it had been accepted at `acceptedAt` (ms) and runs it. */
  async ownerActionAcceptedAt(payload: SignedOwnerActionPayload, acceptedAt: number): Promise<OwnerActionResult> {
    await acceptOwnerAction(this.db, payload);
    await this.db.query(
      `UPDATE exchange.owner_actions SET created_at = to_timestamp($2::double precision / 1000) WHERE id = $1`,
      [payload.actionId.toLowerCase(), acceptedAt],
    );
    return this.ownerActions.execute(payload);
  }

  /** Publishes a fresh price (bid = ask = price) like the ingest does. */
  async setPrice(market: Market, price: string, ts = Date.now()): Promise<bigint> {
    const scaled = priceToScaled(price, marketConfig(market).priceDecimals);
    await this.prices.publish({ market, bid: scaled.toString(), ask: scaled.toString(), mid: scaled.toString(), ts });
    return scaled;
  }

  /** A wallet with an approved session key and `depositUsdc` credited through faucet, proxy and sweep. */
  async trader(depositUsdc = 1000, guardrails: Guardrails = NO_GUARDRAILS): Promise<Trader> {
    const ownerKey = generatePrivateKey();
    const sessionPrivateKey = generatePrivateKey();
    const wallet = privateKeyToAccount(ownerKey).address.toLowerCase();
    const sessionKey = privateKeyToAccount(sessionPrivateKey).address.toLowerCase();
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 7 * 86400);
    const signature = await signApproval(approvalFromGuardrails(wallet, sessionKey, guardrails, expiresAt), ownerKey);
    const registered = await this.sessionKeys.register({
      wallet,
      sessionKey,
      guardrails: { ...guardrails, allowedMarkets: guardrails.allowedMarkets ? [...guardrails.allowedMarkets] : null },
      expiresAt: expiresAt.toString(),
      approvalSignature: signature,
      label: 'test',
    });
    if (registered.status !== 'registered') throw new Error(`registration refused: ${registered.message}`);
    if (depositUsdc > 0) {
      await creditChainBalance(this.db, wallet, 'USDC', usdc(depositUsdc + 1));
      await transferChainBalance(this.db, wallet, depositProxyAddress(wallet), 'USDC', usdc(depositUsdc + 1));
      await this.deposits.sweep(wallet);
    }
    return { wallet, ownerKey, sessionPrivateKey, sessionKey };
  }

  async sign(t: Trader, intent: IntentMessage, signer: Hex = t.sessionPrivateKey): Promise<SignedIntentPayload> {
    const signature = await signIntent(intent, signer);
    const id = intentId(intent);
    const m = intent.message as unknown as Record<string, unknown>;
    const message = Object.fromEntries(
      Object.entries(m).map(([k, v]) => [
        k,
        typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? v.map((x) => String(x)) : v,
      ]),
    );
    return { kind: intent.kind, message, sessionKey: t.sessionKey, signature, intentId: id } as SignedIntentPayload;
  }

  open(
    t: Trader,
    market: Market,
    side: 'long' | 'short',
    marginUsd: number,
    leverage: number,
    extra: { expiresAt?: bigint; signer?: Hex } = {},
  ) {
    return this.sign(
      t,
      {
        kind: 'open',
        message: {
          wallet: t.wallet as Hex,
          market,
          side,
          marginMicro: usdc(marginUsd),
          leverage,
          nonce: nonce++,
          expiresAt: extra.expiresAt ?? inAnHour(),
        },
      },
      extra.signer,
    );
  }

  close(t: Trader, positionIds: string[]) {
    return this.sign(t, {
      kind: 'close',
      message: { wallet: t.wallet as Hex, positionIds: positionIds.map(BigInt), nonce: nonce++, expiresAt: inAnHour() },
    });
  }

  cancel(t: Trader, target: string) {
    return this.sign(t, {
      kind: 'cancel',
      message: { wallet: t.wallet as Hex, intentId: target as Hex, nonce: nonce++, expiresAt: inAnHour() },
    });
  }

  /** An owner action signed by the wallet itself (or by `signer`, e.g. the session key, to test refusals). */
  async ownerAction(
    t: Trader,
    action: OwnerActionMessage | Parameters<typeof newOwnerAction>,
    signer: Hex = t.ownerKey,
  ): Promise<SignedOwnerActionPayload> {
    const a = Array.isArray(action) ? newOwnerAction(...action) : action;
    return {
      kind: a.kind,
      message: ownerActionMessageStrings(a),
      signature: await signOwnerAction(a, signer),
      actionId: ownerActionId(a),
    } as SignedOwnerActionPayload;
  }

  async account(wallet: string): Promise<Record<string, bigint>> {
    const [row] = (await this.db.query(
      `SELECT free_micro, locked_micro, queued_micro, paper_micro, staked_micro, realized_pnl_micro,
         staking_rewards_micro, staking_claimed_micro
         FROM exchange.accounts WHERE wallet = $1`,
      [wallet],
    )) as Record<string, string>[];
    return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, BigInt(v)]));
  }

  async protocol(): Promise<Record<string, bigint>> {
    const [row] = (await this.db.query(
      `SELECT lp_micro, parked_micro, fees_micro, fees_pending_micro, paper_supply_micro, swept_to_stakers_micro,
         staking_reserve_micro FROM exchange.protocol_state`,
    )) as Record<string, string>[];
    return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, BigInt(v)]));
  }

  chain(address: string) {
    return chainBalances(this.db, address);
  }

  /** Mismatches between the ledger and the cached balances (empty = the books balance). */
  ledgerMismatches(): Promise<string[]> {
    return auditLedger(this.db);
  }
}

export function inAnHour(): bigint {
  return BigInt(Math.floor(Date.now() / 1000) + 3000);
}
