import { positionTerms } from '../exchange/position-terms';
import { Inject, Injectable } from '@nestjs/common';
import { GET_ACCOUNT, type ToolData, type ToolInput } from '@paper/contracts';
import { accountBalances, tradeCounts } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import type { ToolContext } from '../context/tool-context';
import { OpenPositionsReader } from '../exchange/open-positions.reader';
import { PendingIntentsReader } from '../exchange/pending-intents.reader';
import { guardrailsData, SessionKeysReader } from '../exchange/session-keys.reader';
import { percent, percentOf, px, signedUsdText, usd, usdText } from '../money/money-format';
import { resolveWallet, shortAddress, type ToolHandler, type ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_ACCOUNT>;

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
    const [account, life, open, pending, keys] = await Promise.all([
      accountBalances(this.db, wallet),
      tradeCounts(this.db, wallet),
      this.open.valued(wallet),
      this.pending.forWallet(wallet),
      this.sessionKeys.forWallet(wallet),
    ]);
    const free = account?.freeMicro ?? 0n;
    const locked = account?.lockedMicro ?? 0n;
    const queued = account?.queuedMicro ?? 0n;
    const unrealized = open.positions.reduce((s, p) => s + p.value.pnlMicro, 0n);
    const margins = open.positions.reduce((s, p) => s + p.position.marginMicro, 0n);
    const equity = free + queued + margins + unrealized;
    const positions = open.positions.map(({ position: p, mark, value }) => ({
      ...positionTerms(p),
      notionalUsd: usd(p.notionalMicro),
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
    const exists = account !== undefined;
    const summary = exists
      ? `${shortAddress(wallet)}: equity ${usdText(equity)} (free ${usdText(free)}, margin in ${positions.length} ` +
        `open position${positions.length === 1 ? '' : 's'} ${usdText(margins)}, ` +
        `unrealized ${signedUsdText(unrealized)}${queued > 0n ? `, queued winnings ${usdText(queued)}` : ''})` +
        (pendingIntents.length > 0
          ? `; ${pendingIntents.length} intent${pendingIntents.length === 1 ? '' : 's'} pending`
          : '') +
        '.'
      : `${shortAddress(wallet)} has no exchange account yet: deposit at least 10 USDC (see get_deposit_info) to ` +
        `start trading.`;
    return {
      summary,
      data: {
        wallet,
        exists,
        displayName: account?.displayName ?? null,
        freeUsd: usd(free),
        lockedUsd: usd(locked),
        queuedUsd: usd(queued),
        unrealizedPnlUsd: usd(unrealized),
        equityUsd: usd(equity),
        paper: usd(account?.paperMicro ?? 0n),
        paperStaked: usd(account?.stakedMicro ?? 0n),
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
          realizedPnlUsd: usd(account?.realizedPnlMicro ?? 0n),
          volumeUsd: usd(account?.totalVolumeMicro ?? 0n),
          feesPaidUsd: usd(account?.feesPaidMicro ?? 0n),
          stakingRewardsUsd: usd(account?.stakingRewardsMicro ?? 0n),
          ...life,
        },
      },
    };
  }
}
