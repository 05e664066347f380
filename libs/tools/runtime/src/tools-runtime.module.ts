import { type DynamicModule, Module } from '@nestjs/common';
import { QueueModule } from '@paper/nest-infra';
import { createUpstreamClient } from '@paper/upstream';
import { AccessTokenVerifier } from './auth/access-token.verifier';
import { OauthDatabase } from './auth/oauth-database';
import { ScopeStepUps } from './auth/scope-step-ups';
import { ConnectionLiveness } from './auth/connection-liveness';
import { ToolIdempotency } from './idempotency/tool-idempotency';
import { ToolResultCache } from './cache/tool-result.cache';
import { CandleSource } from './exchange/candle.source';
import { ExchangeStateReader } from './exchange/exchange-state.reader';
import { IntentStatusReader } from './exchange/intent-status.reader';
import { OpenPositionsReader } from './exchange/open-positions.reader';
import { PendingIntentsReader } from './exchange/pending-intents.reader';
import { PrevDayPriceSource, UPSTREAM_CLIENT } from './exchange/prev-day-price.source';
import { PriceReader } from './exchange/price.reader';
import { SessionKeysReader } from './exchange/session-keys.reader';
import { ToolExecutor } from './executor/tool-executor';
import { AccountHandler } from './handlers/account.handler';
import { CalculatorHandler } from './handlers/calculator.handler';
import { DepositInfoHandler } from './handlers/deposit-info.handler';
import { EventsHandler } from './handlers/events.handler';
import { PortfolioHistoryHandler, TradeHistoryHandler } from './handlers/history.handler';
import { LeaderboardHandler } from './handlers/leaderboard.handler';
import { LiquidationMapHandler } from './handlers/liquidation-map.handler';
import { MarketsHandler } from './handlers/markets.handler';
import { PriceChartHandler } from './handlers/price-chart.handler';
import { ProtocolStatsHandler } from './handlers/protocol-stats.handler';
import { IntentStatusHandler, TradingPermissionsHandler } from './handlers/session.handler';
import { TOOL_HANDLERS } from './handlers/tool-handler';
import { RecentTradesHandler, TopTradesHandler } from './handlers/trades.handler';
import { RateLimiter } from './rate-limit/rate-limiter';
import { TOOLS_REDIS, ToolsRedisLifecycle, createToolsRedis } from './redis/tools-redis';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from './runtime-options';
import { CancelIntentHandler } from './trading/cancel-intent.handler';
import { ClosePositionsHandler } from './trading/close-positions.handler';
import { IntentSubmitter } from './trading/intent.submitter';
import { OpenPositionHandler } from './trading/open-position.handler';
import { PreviewTradeHandler } from './trading/preview-trade.handler';
import { QuoteStore } from './trading/quote.store';
import { SessionKeySigner } from './trading/session-key.signer';
import { TradeChecks } from './trading/trade-checks';

const HANDLERS = [
  MarketsHandler,
  PriceChartHandler,
  ProtocolStatsHandler,
  LiquidationMapHandler,
  LeaderboardHandler,
  TopTradesHandler,
  RecentTradesHandler,
  AccountHandler,
  TradeHistoryHandler,
  PortfolioHistoryHandler,
  CalculatorHandler,
  DepositInfoHandler,
  TradingPermissionsHandler,
  IntentStatusHandler,
  EventsHandler,
  PreviewTradeHandler,
  OpenPositionHandler,
  ClosePositionsHandler,
  CancelIntentHandler,
];

const SERVICES = [
  PriceReader,
  ExchangeStateReader,
  OpenPositionsReader,
  PendingIntentsReader,
  SessionKeysReader,
  IntentStatusReader,
  PrevDayPriceSource,
  CandleSource,
  QuoteStore,
  OauthDatabase,
  ScopeStepUps,
  SessionKeySigner,
  IntentSubmitter,
  TradeChecks,
  ToolResultCache,
  RateLimiter,
  ConnectionLiveness,
  AccessTokenVerifier,
  ToolIdempotency,
  ToolExecutor,
];

/**
 * The tool runtime for a host app (tools-gateway, mcp-server). Needs the host's InfraModule (the exchange
 * DataSource); brings its own Redis client and the queue registry for the intents queue.
 */
@Module({})
export class ToolsRuntimeModule {
  static forRoot(options: ToolsRuntimeOptions): DynamicModule {
    return {
      module: ToolsRuntimeModule,
      imports: [QueueModule],
      providers: [
        { provide: TOOLS_RUNTIME_OPTIONS, useValue: options },
        { provide: UPSTREAM_CLIENT, useFactory: () => createUpstreamClient(options.upstream) },
        { provide: TOOLS_REDIS, useFactory: () => createToolsRedis(options) },
        ToolsRedisLifecycle,
        ...SERVICES,
        ...HANDLERS,
        { provide: TOOL_HANDLERS, useFactory: (...handlers: unknown[]) => handlers, inject: HANDLERS },
      ],
      exports: [
        TOOLS_RUNTIME_OPTIONS,
        ToolExecutor,
        ToolResultCache,
        RateLimiter,
        AccessTokenVerifier,
        ConnectionLiveness,
        CandleSource,
        PriceReader,
      ],
    };
  }
}
