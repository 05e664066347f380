import { ApiPropertyOptional } from '@nestjs/swagger';
import { WALLET_RULE_RANGES } from '@paper/contracts';
import { Type } from 'class-transformer';
import { IsBoolean, IsNumber, IsObject, Max, Min, ValidateNested } from 'class-validator';
import { Optional } from '../validation/optional.decorator';

const R = WALLET_RULE_RANGES;
const num = { allowNaN: false, allowInfinity: false };

export class LiquidationRuleDto {
  @ApiPropertyOptional({ description: 'Alert on liquidation risk', default: true })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: 'Alert when the distance to the bust price falls below this percentage',
    minimum: R.belowPct.min,
    maximum: R.belowPct.max,
    default: 10,
  })
  @Optional()
  @IsNumber(num)
  @Min(R.belowPct.min)
  @Max(R.belowPct.max)
  belowPct?: number;
}

export class BalanceRuleDto {
  @ApiPropertyOptional({ description: 'Alert on balance changes', default: false })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: 'Smallest balance change (USD) that alerts',
    minimum: R.changeUsd.min,
    maximum: R.changeUsd.max,
    default: 1000,
  })
  @Optional()
  @IsNumber(num)
  @Min(R.changeUsd.min)
  @Max(R.changeUsd.max)
  changeUsd?: number;
}

export class SessionKeyRuleDto {
  @ApiPropertyOptional({ description: 'Alert when a session key is about to expire', default: true })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: 'Alert this many days before expiry',
    minimum: R.withinDays.min,
    maximum: R.withinDays.max,
    default: 3,
  })
  @Optional()
  @IsNumber(num)
  @Min(R.withinDays.min)
  @Max(R.withinDays.max)
  withinDays?: number;
}

export class RewardsRuleDto {
  @ApiPropertyOptional({ description: 'Alert on reward-token amounts', default: false })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: 'Alert when rewards exceed this amount (USDC)',
    minimum: R.aboveUsdc.min,
    maximum: R.aboveUsdc.max,
    default: 100,
  })
  @Optional()
  @IsNumber(num)
  @Min(R.aboveUsdc.min)
  @Max(R.aboveUsdc.max)
  aboveUsdc?: number;
}

/**
 * Wallet rules as sent by clients: every field optional (missing fields keep their current or default value); unknown
 * keys are refused.
 */
export class WalletRulesDto {
  @ApiPropertyOptional({ type: LiquidationRuleDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => LiquidationRuleDto)
  liquidation?: LiquidationRuleDto;

  @ApiPropertyOptional({ description: 'Alert when a position opens', default: true })
  @Optional()
  @IsBoolean()
  opened?: boolean;

  @ApiPropertyOptional({ description: 'Alert when a position closes', default: true })
  @Optional()
  @IsBoolean()
  closed?: boolean;

  @ApiPropertyOptional({ description: 'Alert when a position is liquidated', default: true })
  @Optional()
  @IsBoolean()
  liquidated?: boolean;

  @ApiPropertyOptional({ type: BalanceRuleDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => BalanceRuleDto)
  balance?: BalanceRuleDto;

  @ApiPropertyOptional({ type: SessionKeyRuleDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => SessionKeyRuleDto)
  sessionKey?: SessionKeyRuleDto;

  @ApiPropertyOptional({ type: RewardsRuleDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => RewardsRuleDto)
  rewards?: RewardsRuleDto;
}
