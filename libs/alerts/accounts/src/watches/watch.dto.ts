import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WATCH_ROLES, type WalletRules, type WatchRole } from '@paper/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, Length, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { Optional } from '../validation/optional.decorator';
import { WalletRulesDto } from './wallet-rules.dto';

export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** A label names a watch where an address could be typed instead (the bot's /rules, /risk…), so it is never one. */
const NOT_AN_ADDRESS = /^(?!\s*0x[0-9a-fA-F]{40}\s*$)/;
const LABEL_NOT_ADDRESS = 'label must not be a wallet address (it would be taken for the address)';

export class CreateWatchDto {
  @ApiProperty({
    description: 'Wallet address (any case; stored lower-case)',
    pattern: ADDRESS_PATTERN.source,
    example: '0x52908400098527886e0f7030069857d2e4169ee7',
  })
  @IsString()
  @Matches(ADDRESS_PATTERN, { message: 'address must be a 0x-prefixed 40-hex-digit wallet address' })
  address!: string;

  @ApiPropertyOptional({
    enum: WATCH_ROLES,
    description:
      'Why the wallet is watched: own (your wallet), follow (a trader you follow), team (a teammate), client (a ' +
      'wallet you look after)',
  })
  @Optional()
  @IsIn(WATCH_ROLES)
  role?: WatchRole;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'Any text but a wallet address' })
  @Optional()
  @IsString()
  @Length(1, 100)
  @Matches(NOT_AN_ADDRESS, { message: LABEL_NOT_ADDRESS })
  label?: string;

  @ApiPropertyOptional({ type: WalletRulesDto, description: 'Missing fields take their defaults' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => WalletRulesDto)
  rules?: WalletRulesDto;
}

export class UpdateWatchDto {
  @ApiPropertyOptional({ type: WalletRulesDto, description: 'Partial: only the fields sent change' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => WalletRulesDto)
  rules?: WalletRulesDto;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: 1,
    maxLength: 100,
    description: 'Any text but a wallet address; null removes the label',
  })
  @Optional()
  @ValidateIf((_o, value) => value !== null)
  @IsString()
  @Length(1, 100)
  @Matches(NOT_AN_ADDRESS, { message: LABEL_NOT_ADDRESS })
  label?: string | null;
}

class LiquidationRuleView {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() belowPct!: number;
}
class BalanceRuleView {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() changeUsd!: number;
}
class SessionKeyRuleView {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() withinDays!: number;
}
class RewardsRuleView {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() aboveUsdc!: number;
}

/** Complete rules as stored (defaults filled in). */
export class WalletRulesView implements WalletRules {
  @ApiProperty({ type: LiquidationRuleView }) liquidation!: LiquidationRuleView;
  @ApiProperty() opened!: boolean;
  @ApiProperty() closed!: boolean;
  @ApiProperty() liquidated!: boolean;
  @ApiProperty({ type: BalanceRuleView }) balance!: BalanceRuleView;
  @ApiProperty({ type: SessionKeyRuleView }) sessionKey!: SessionKeyRuleView;
  @ApiProperty({ type: RewardsRuleView }) rewards!: RewardsRuleView;
}

export class WatchView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Lower-case address' }) address!: string;
  @ApiProperty({ enum: WATCH_ROLES, nullable: true, type: 'string' }) role!: WatchRole | null;
  @ApiProperty({ type: 'string', nullable: true }) label!: string | null;
  @ApiProperty({ type: WalletRulesView }) rules!: WalletRules;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}
