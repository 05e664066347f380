import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ALERT_KINDS } from '@paper/alerts-data';
import { Type } from 'class-transformer';
import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { Optional } from '../validation/optional.decorator';

export const PAGE_MAX = 100;
export const ALERTS_PAGE_DEFAULT = 20;
export const DEAD_PAGE_DEFAULT = 50;

/** The `limit` query parameter of a page: 1 to PAGE_MAX, documented with its default. */
const PageLimit = (fallback: number, description: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: PAGE_MAX, default: fallback, description }),
    Optional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(PAGE_MAX),
  );

export class AlertsQueryDto {
  @PageLimit(ALERTS_PAGE_DEFAULT, 'Alerts per page')
  limit?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Cursor: the id of an alert of yours (nextBefore of the previous page); returns older alerts',
  })
  @Optional()
  @IsUUID('all', { message: 'before must be an alert id (nextBefore of the previous page)' })
  before?: string;
}

export class DeadQueryDto {
  @PageLimit(DEAD_PAGE_DEFAULT, 'Newest dead deliveries to return')
  limit?: number;
}

const DELIVERY_STATUSES = ['queued', 'sending', 'delivered', 'failed', 'dead'];

export class DeliveryStatusView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) channelId!: string;
  @ApiProperty({ enum: ['discord', 'webhook', 'telegram'] }) channelKind!: string;
  @ApiProperty({ type: 'string', nullable: true }) channelLabel!: string | null;
  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description:
      'queued, sending, delivered, failed (a retry is scheduled) or dead (dead letter: retry with POST ' +
      '/api/deliveries/{id}/retry)',
  })
  status!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: 'string', nullable: true }) lastError!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) deliveredAt!: string | null;
}

export class AlertView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Stable event id, the same on every delivery attempt' }) eventId!: string;
  @ApiProperty({ enum: ALERT_KINDS }) kind!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Wallet the alert is about (null for protocol alerts)' })
  wallet!: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true }) watchId!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Kind-specific facts' }) details!: Record<
    string,
    unknown
  >;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: [DeliveryStatusView] }) deliveries!: DeliveryStatusView[];
}

export class AlertsPageView {
  @ApiProperty({ type: [AlertView], description: 'Newest first' }) alerts!: AlertView[];
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    description: 'Pass as `before` for the next (older) page; null on the last page',
  })
  nextBefore!: string | null;
}

class DeadAlertSummary {
  @ApiProperty({ enum: ALERT_KINDS }) kind!: string;
  @ApiProperty({ type: 'string', nullable: true }) wallet!: string | null;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
}

export class DeliveryView extends DeliveryStatusView {
  @ApiProperty({ format: 'uuid' }) alertId!: string;
  @ApiProperty() eventId!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: DeadAlertSummary }) alert!: DeadAlertSummary;
}

export class DeadDeliveriesView {
  @ApiProperty({ type: [DeliveryView], description: 'Newest first' }) deliveries!: DeliveryView[];
}
