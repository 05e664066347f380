import { Inject, Injectable } from '@nestjs/common';
import { GET_PROTOCOL_STATS, type ToolData, type ToolInput } from '@paper/contracts';
import { protocolDays, protocolTotals } from '@paper/exchange-data';
import { DataSource } from 'typeorm';
import { usd, usdText } from '../money/money-format';
import type { ToolHandler, ToolOutcome } from './tool-handler';

type Data = ToolData<typeof GET_PROTOCOL_STATS>;

@Injectable()
export class ProtocolStatsHandler implements ToolHandler<typeof GET_PROTOCOL_STATS> {
  readonly tool = GET_PROTOCOL_STATS;

  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async run(input: ToolInput<typeof GET_PROTOCOL_STATS>): Promise<ToolOutcome<Data>> {
    const [t, days] = await Promise.all([protocolTotals(this.db), protocolDays(this.db, input.days)]);
    const free = t.freeMicro;
    const locked = t.lockedMicro;
    const lp = t.lpMicro;
    const parked = t.parkedMicro;
    const reserve = t.stakingReserveMicro;
    const tvl = free + locked + lp + parked + reserve;
    const history = days.map((r) => ({
      day: r.day,
      volumeUsd: usd(r.volumeMicro),
      traderPnlUsd: usd(r.traderPnlMicro),
      liquidations: r.liquidations,
      liquidatedUsd: usd(r.liquidatedMarginMicro),
      users: r.users,
      trades: r.trades,
    }));
    const openPositions = t.openPositions;
    const periodVolume = days.reduce((s, r) => s + r.volumeMicro, 0n);
    return {
      summary:
        `TVL ${usdText(tvl)} (LP ${usdText(lp)}, locked margin ${usdText(locked)}); ${openPositions} open ` +
        `position${openPositions === 1 ? '' : 's'}; ` +
        `lifetime volume ${usdText(t.lifetimeVolumeMicro)}; ${usdText(periodVolume)} traded in the last ` +
        `${input.days} day${input.days === 1 ? '' : 's'}.`,
      data: {
        tradingEnabled: t.tradingEnabled,
        tvlUsd: usd(tvl),
        marginLockedUsd: usd(locked),
        traderBalancesUsd: usd(free + locked),
        lpUsd: usd(lp),
        lpParkedUsd: usd(parked),
        lifetimeVolumeUsd: usd(t.lifetimeVolumeMicro),
        openPositions,
        openNotionalUsd: usd(t.openNotionalMicro),
        feesUsd: usd(t.feesMicro),
        sweptToStakersUsd: usd(t.sweptToStakersMicro),
        stakingReserveUsd: usd(reserve),
        paperSupply: usd(t.paperSupplyMicro),
        paperStaked: usd(t.stakedMicro),
        payoutQueueUsd: usd(t.payoutQueueMicro),
        payoutQueueEntries: t.payoutQueueEntries,
        payoutQueueFeesUsd: usd(t.payoutQueueFeesMicro),
        traders: t.traders,
        days: input.days,
        history,
      },
    };
  }
}
