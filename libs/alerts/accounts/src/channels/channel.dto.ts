import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length, MaxLength } from 'class-validator';
import { Optional } from '../validation/optional.decorator';

export const CREATABLE_KINDS = ['discord', 'webhook'] as const;

export class CreateChannelDto {
  @ApiProperty({
    enum: CREATABLE_KINDS,
    description: 'Telegram channels are created by linking a chat (POST /api/telegram/link)',
  })
  @IsIn(CREATABLE_KINDS, {
    message: 'kind must be discord or webhook (Telegram chats are linked with POST /api/telegram/link)',
  })
  kind!: (typeof CREATABLE_KINDS)[number];

  @ApiProperty({
    maxLength: 2048,
    description:
      'discord: a Discord webhook URL (https://discord.com/api/webhooks/{id}/{token}); webhook: a public http(s) URL',
    example: 'https://hooks.example.com/paper-alerts',
  })
  @IsString()
  @MaxLength(2048)
  target!: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @Length(1, 100)
  label?: string;
}

export class UpdateChannelDto {
  @ApiProperty({ enum: ['active', 'paused'], description: 'active also re-enables a channel that delivery disabled' })
  @IsIn(['active', 'paused'], { message: 'status must be active or paused' })
  status!: 'active' | 'paused';
}

export class ChannelView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['discord', 'webhook', 'telegram'] }) kind!: 'discord' | 'webhook' | 'telegram';
  @ApiProperty({
    description: 'The target with its secret parts masked',
    example: 'https://discord.com/api/webhooks/123456789012345678/****',
  })
  target!: string;
  @ApiProperty({ type: 'string', nullable: true }) label!: string | null;
  @ApiProperty({
    enum: ['active', 'paused', 'disabled'],
    description: 'disabled: delivery found the receiver gone (see disabledReason)',
  })
  status!: 'active' | 'paused' | 'disabled';
  @ApiProperty({ type: 'string', nullable: true }) disabledReason!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class CreatedChannelView extends ChannelView {
  @ApiPropertyOptional({
    description: 'webhook channels only: the signing secret, shown this once',
    example: 'whsec_…',
  })
  signingSecret?: string;
}

export class RotatedSecretView extends ChannelView {
  @ApiProperty({ description: 'The new signing secret, shown this once', example: 'whsec_…' })
  signingSecret!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Until then the replaced secret signs too (two signatures per header)',
  })
  previousSecretExpiresAt!: string;
}

export class ChannelTestResultView {
  @ApiProperty({ description: 'true when the receiver accepted the test message' }) delivered!: boolean;
  @ApiProperty({
    enum: ['delivered', 'retry', 'failed', 'disable'],
    description:
      'delivered; retry (temporary receiver failure); failed (refused for good); disable (receiver gone: the channel ' +
      'is now disabled)',
  })
  outcome!: 'delivered' | 'retry' | 'failed' | 'disable';
  @ApiProperty({ description: 'Event id of the test message (webhooks: body id and x-service-alerts-event-id)' })
  eventId!: string;
  @ApiPropertyOptional({ description: 'HTTP status the receiver answered' }) receiverStatus?: number;
  @ApiPropertyOptional({ description: 'Why it was not delivered' }) detail?: string;
}
