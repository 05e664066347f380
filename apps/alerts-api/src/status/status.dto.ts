import { ApiProperty } from '@nestjs/swagger';

class ChannelAvailabilityView {
  @ApiProperty({ description: 'Discord webhook channels can be added' }) discord!: boolean;
  @ApiProperty({ description: 'Signed webhook channels can be added' }) webhook!: boolean;
  @ApiProperty({ description: 'A Telegram bot is configured (POST /api/telegram/link works)' }) telegram!: boolean;
}

class RangeView {
  @ApiProperty() min!: number;
  @ApiProperty() max!: number;
}

class RuleRangesView {
  @ApiProperty({ type: RangeView }) belowPct!: RangeView;
  @ApiProperty({ type: RangeView }) changeUsd!: RangeView;
  @ApiProperty({ type: RangeView }) withinDays!: RangeView;
  @ApiProperty({ type: RangeView }) aboveUsdc!: RangeView;
  @ApiProperty({ type: RangeView }) thresholdPerHour!: RangeView;
}

export class LimitsView {
  @ApiProperty({ description: 'Watches per account' }) watchesPerAccount!: number;
  @ApiProperty({ description: 'Channels per account' }) channelsPerAccount!: number;
  @ApiProperty({ description: 'Test messages per channel per minute' }) testMessagesPerMinute!: number;
  @ApiProperty({ description: 'Lifetime of a Telegram link code' }) telegramLinkCodeMinutes!: number;
  @ApiProperty({ description: 'Largest `limit` of GET /api/alerts and GET /api/deliveries/dead' }) pageSizeMax!: number;
  @ApiProperty({ description: 'Receivers should refuse webhook signatures older than this' })
  webhookSignatureToleranceSeconds!: number;
  @ApiProperty({ type: RuleRangesView, description: 'Inclusive bounds of the numeric rule fields' })
  ruleRanges!: RuleRangesView;
}

export class PollView {
  @ApiProperty({ description: 'Poll job: wallets or protocol' }) name!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({ type: 'boolean', nullable: true }) ok!: boolean | null;
}

export class StatusView {
  @ApiProperty({ description: 'Storage is ready: endpoints that need it answer normally' }) ready!: boolean;
  @ApiProperty({ type: ChannelAvailabilityView }) channels!: ChannelAvailabilityView;
  @ApiProperty({ type: LimitsView }) limits!: LimitsView;
  @ApiProperty({
    type: PollView,
    nullable: true,
    description: 'The most recent scheduled poll; null before the first one (or while storage is not ready)',
  })
  lastScheduledPoll!: PollView | null;
  @ApiProperty({ example: 'Alerts are best effort. This service is unofficial and not affiliated with the exchange.' })
  notice!: string;
}
