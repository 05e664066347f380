import { ApiProperty } from '@nestjs/swagger';
import { IsISO8601 } from 'class-validator';
import { ChannelView } from './channel.dto';

/** At most this many deliveries are re-queued by one `recover` call (`more` says when others remain). */
export const RECOVER_LIMIT = 1000;

export class ChannelLastErrorView {
  @ApiProperty() message!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class ChannelLatencyView {
  @ApiProperty({ description: 'Median alert-to-delivered time, milliseconds' }) p50Ms!: number;
  @ApiProperty({ description: '99th percentile alert-to-delivered time, milliseconds' }) p99Ms!: number;
}

export class ChannelHealthView {
  @ApiProperty() delivered!: number;
  @ApiProperty({ description: 'Failed at least once, a retry is scheduled' }) failed!: number;
  @ApiProperty({ description: 'Queued or being sent' }) pending!: number;
  @ApiProperty({ description: 'Dead-lettered' }) dead!: number;
  @ApiProperty({ type: ChannelLastErrorView, nullable: true }) lastError!: ChannelLastErrorView | null;
  @ApiProperty({
    type: ChannelLatencyView,
    nullable: true,
    description: 'Over deliveries delivered in the last 24 hours; null without any',
  })
  latency!: ChannelLatencyView | null;
}

export class ChannelDetailView extends ChannelView {
  @ApiProperty({ type: ChannelHealthView }) health!: ChannelHealthView;
}

export class RecoverChannelDto {
  @ApiProperty({
    format: 'date-time',
    description: 'Re-queue failed and dead deliveries of alerts created at or after this time',
  })
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since!: string;
}

export class RecoverResultView {
  @ApiProperty({ description: `Deliveries re-queued by this call (at most ${RECOVER_LIMIT})` }) requeued!: number;
  @ApiProperty({ description: 'true when more remain: call again' }) more!: boolean;
}
