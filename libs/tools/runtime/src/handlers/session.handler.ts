import { Inject, Injectable } from '@nestjs/common';
import { GET_INTENT_STATUS, GET_TRADING_PERMISSIONS, SCOPES, type ToolData, type ToolInput } from '@paper/contracts';
import { usdcToMicro } from '@paper/exchange';
import { dailyUsage } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { toolErrors } from '../errors/tool.error';
import { IntentStatusReader } from '../exchange/intent-status.reader';
import { guardrailsData, type SessionKeyInfo, SessionKeysReader } from '../exchange/session-keys.reader';
import { usd, usdText } from '../money/money-format';
import { shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

type PermissionsData = ToolData<typeof GET_TRADING_PERMISSIONS>;

/** Next UTC midnight: when the daily notional guardrail resets. */
export function nextUtcMidnight(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

const RECONNECT =
  'connect this app to your wallet again and approve a trading session (a session key with guardrails) on the ' +
  'consent page';

@Injectable()
export class TradingPermissionsHandler implements ToolHandler<typeof GET_TRADING_PERMISSIONS> {
  readonly tool = GET_TRADING_PERMISSIONS;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly sessionKeys: SessionKeysReader,
  ) {}

  async run(
    _input: ToolInput<typeof GET_TRADING_PERMISSIONS>,
    ctx: ToolContext,
  ): Promise<ToolOutcome<PermissionsData>> {
    const resetsAt = nextUtcMidnight().toISOString();
    if (!ctx.wallet) {
      const reason =
        'No wallet is connected: this call carried no OAuth token. Call /api/v1/me/tools/get_trading_permissions ' +
        'with an access token to see what your connection may do.';
      return {
        summary: reason,
        data: {
          connected: false,
          wallet: null,
          scopes: [],
          canRead: false,
          canTrade: false,
          session: { active: false, address: null, label: null, expiresAt: null },
          guardrails: null,
          daily: { limitUsd: null, usedUsd: 0, remainingUsd: null, resetsAt },
          openPositions: 0,
          reason,
        },
      };
    }
    const wallet = ctx.wallet.toLowerCase();
    const [key, usage] = await Promise.all([
      ctx.sessionKey ? this.sessionKeys.find(wallet, ctx.sessionKey) : Promise.resolve(null),
      dailyUsage(this.db, wallet),
    ]);
    const used = usage.usedMicro;
    const openPositions = usage.openPositions;
    const canRead = ctx.scopes.includes(SCOPES.read);
    const hasWrite = ctx.scopes.includes(SCOPES.write);
    const active = key?.active === true;
    const limit = key?.guardrails.maxDailyNotionalUsd ? usdcToMicro(key.guardrails.maxDailyNotionalUsd) : null;
    const reason = tradingBlocker(hasWrite, ctx.sessionKey, key);
    const data: PermissionsData = {
      connected: true,
      wallet,
      scopes: [...ctx.scopes],
      canRead,
      canTrade: reason === null,
      session: {
        active,
        address: key?.address ?? ctx.sessionKey ?? null,
        label: key?.label ?? null,
        expiresAt: key?.expiresAt.toISOString() ?? null,
      },
      guardrails: key ? guardrailsData(key.guardrails) : null,
      daily: {
        limitUsd: limit === null ? null : usd(limit),
        usedUsd: usd(used),
        remainingUsd: limit === null ? null : usd(limit > used ? limit - used : 0n),
        resetsAt,
      },
      openPositions,
      reason,
    };
    const summary =
      reason === null
        ? `${shortAddress(wallet)} can trade until ${data.session.expiresAt}; ${usdText(used)} notional used today` +
          `${limit === null ? ' (no daily limit)' : ` of ${usdText(limit)}`}, ${openPositions} open ` +
          `position${openPositions === 1 ? '' : 's'}.`
        : `${shortAddress(wallet)} is connected${canRead ? ' and can read its account' : ''} but cannot trade: ` +
          `${reason}`;
    return { summary, data };
  }
}

function tradingBlocker(hasWrite: boolean, named: string | undefined, key: SessionKeyInfo | null): string | null {
  if (!hasWrite) return `the connection was not granted the trade:write scope; ${RECONNECT}.`;
  if (!named || !key) return `no trading session is approved for this connection; ${RECONNECT}.`;
  if (key.revokedAt) return `the wallet owner revoked this trading session; ${RECONNECT}.`;
  if (!key.active) return `the trading session expired at ${key.expiresAt.toISOString()}; ${RECONNECT}.`;
  return null;
}

@Injectable()
export class IntentStatusHandler implements ToolHandler<typeof GET_INTENT_STATUS> {
  readonly tool = GET_INTENT_STATUS;

  constructor(private readonly intents: IntentStatusReader) {}

  async run(input: ToolInput<typeof GET_INTENT_STATUS>): Promise<ToolOutcome<ToolData<typeof GET_INTENT_STATUS>>> {
    const view = await this.intents.find(input.intentId);
    if (!view || (input.wallet && view.wallet !== input.wallet.toLowerCase())) {
      throw toolErrors.notFound(
        `No intent ${input.intentId.toLowerCase()}${input.wallet ? ` of ${input.wallet.toLowerCase()}` : ''} is ` +
          `known. Check the intentId returned by open_position, close_positions or cancel_intent.`,
      );
    }
    const { result: _result, ...data } = view;
    const summary =
      view.status === 'queued'
        ? `Intent ${shortAddress(view.intentId)} is still queued: ${view.message} Check again in a second or two.`
        : view.status === 'executed'
          ? (
              `Intent ${shortAddress(view.intentId)} executed` +
              (view.positionIds.length > 0
                ? ` (position${view.positionIds.length === 1 ? '' : 's'} ${view.positionIds.join(', ')})`
                : '') +
              `: ${view.message ?? ''}`
            ).trim()
          : `Intent ${shortAddress(view.intentId)} is no longer pending: ` +
            `${view.status}${view.message ? `, ${view.message}` : ''}`;
    return { summary, data: { ...data, positionIds: [...data.positionIds] } };
  }
}
