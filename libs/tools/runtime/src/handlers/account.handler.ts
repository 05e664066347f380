import { Inject, Injectable } from '@nestjs/common';
import { GET_ACCOUNT, type ToolData, type ToolInput } from '@paper/contracts';
import { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { OpenPositionsReader } from '../exchange/open-positions.reader';
import { PendingIntentsReader } from '../exchange/pending-intents.reader';
import { guardrailsData, SessionKeysReader } from '../exchange/session-keys.reader';
import { percent, percentOf, px, signedUsdText, toBig, usd, usdText } from '../money/money-format';
import { resolveWallet, shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_ACCOUNT>;

const LIFETIME_SQL = `
  SELECT COUNT(*) FILTER (WHERE status <> 'open') AS trades,
         COUNT(*) FILTER (WHERE status = 'closed' AND pnl_micro > 0) AS wins,
         COUNT(*) FILTER (WHERE status = 'closed' AND pnl_micro <= 0) AS losses,
         COUNT(*) FILTER (WHERE status = 'liquidated') AS liquidations
    FROM exchange.positions WHERE wallet = $1`;

@Injectable()
export class AccountHandler implements ToolHandler<typeof GET_ACCOUNT> {
  readonly tool = GET_ACCOUNT;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    private readonly open: OpenPositionsReader,
    private readonly pending: PendingIntentsReader,
    private readonly sessionKeys: SessionKeysReader,
  ) {}

  async run(input: ToolInput<typeof GET_ACCOUNT>, ctx: ToolContext): Promise<ToolOutcome<Data>> {
    const wallet = resolveWallet(this.tool, input.wallet, ctx);
    const [accounts, lifetimeRows, open, pending, keys] = await Promise.all([
      this.db.query(`SELECT * FROM exchange.accounts WHERE wallet = $1`, [wallet]) as Promise<Record<string, unknown>[]>,
      this.db.query(LIFETIME_SQL, [wallet]) as Promise<Record<string, unknown>[]>,
      this.open.valued(wallet),
      this.pending.forWallet(wallet),
      this.sessionKeys.forWallet(wallet),
    ]);
    const a = accounts[0] ?? {};
    const free = toBig(a['free_micro']);
    const locked = toBig(a['locked_micro']);
    const queued = toBig(a['queued_micro']);
    const unrealized = open.positions.reduce((s, p) => s + p.value.pnlMicro, 0n);
    const margins = open.positions.reduce((s, p) => s + p.position.marginMicro, 0n);
    const equity = free + queued + margins + unrealized;
    const life = lifetimeRows[0] ?? {};
    const positions = open.positions.map(({ position: p, mark, value }) => ({
      positionId: p.id,
      market: p.market,
      side: p.side,
      marginUsd: usd(p.marginMicro),
      leverage: p.leverage,
      notionalUsd: usd(p.notionalMicro),
      entryPrice: px(p.entryPrice, p.market),
      markPrice: px(mark, p.market),
      bustPrice: px(p.bustPrice, p.market),
      estimatedPnlUsd: usd(value.pnlMicro),
      estimatedPnlPercent: percentOf(value.pnlMicro, p.marginMicro, 2) ?? 0,
      liquidationDistancePercent: percent(value.distance, 4),
      liquidationRiskPercent: percent(value.risk, 2),
      openedAt: p.openedAt,
    }));
    const pendingIntents = pending.map(({ intent, submittedAt }) => ({
      intentId: intent.intentId,
      kind: intent.kind,
      market: intent.kind === 'open' ? intent.message.market : null,
      side: intent.kind === 'open' ? intent.message.side : null,
      marginUsd: intent.kind === 'open' ? usd(BigInt(intent.message.marginMicro)) : null,
      leverage: intent.kind === 'open' ? intent.message.leverage : null,
      positionIds: intent.kind === 'close' ? [...intent.message.positionIds] : [],
      submittedAt: submittedAt.toISOString(),
    }));
    const exists = accounts.length > 0;
    const summary = exists
      ? `${shortAddress(wallet)}: equity ${usdText(equity)} (free ${usdText(free)}, margin in ${positions.length} open position${positions.length === 1 ? '' : 's'} ` +
        `${usdText(margins)}, unrealized ${signedUsdText(unrealized)}${queued > 0n ? `, queued winnings ${usdText(queued)}` : ''})` +
        `${pendingIntents.length > 0 ? `; ${pendingIntents.length} intent${pendingIntents.length === 1 ? '' : 's'} pending` : ''}.`
      : `${shortAddress(wallet)} has no exchange account yet: deposit at least 10 USDC (see get_deposit_info) to start trading.`;
    return {
      summary,
      data: {
        wallet,
        exists,
        displayName: (a['display_name'] as string | null | undefined) ?? null,
        freeUsd: usd(free),
        lockedUsd: usd(locked),
        queuedUsd: usd(queued),
        unrealizedPnlUsd: usd(unrealized),
        equityUsd: usd(equity),
        paper: usd(toBig(a['paper_micro'])),
        paperStaked: usd(toBig(a['staked_micro'])),
        positions,
        pendingIntents,
        sessionKeys: keys.map((k) => ({
          address: k.address,
          label: k.label,
          active: k.active,
          expiresAt: k.expiresAt.toISOString(),
          revokedAt: k.revokedAt?.toISOString() ?? null,
          guardrails: guardrailsData(k.guardrails),
        })),
        lifetime: {
          realizedPnlUsd: usd(toBig(a['realized_pnl_micro'])),
          volumeUsd: usd(toBig(a['total_volume_micro'])),
          feesPaidUsd: usd(toBig(a['fees_paid_micro'])),
          stakingRewardsUsd: usd(toBig(a['staking_rewards_micro'])),
          trades: Number(life['trades'] ?? 0),
          wins: Number(life['wins'] ?? 0),
          losses: Number(life['losses'] ?? 0),
          liquidations: Number(life['liquidations'] ?? 0),
        },
      },
    };
  }
}
