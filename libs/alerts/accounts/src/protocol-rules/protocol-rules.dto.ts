import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROTOCOL_MARKETS, PROTOCOL_RULE_RANGES, type ProtocolMarket, type ProtocolRules } from '@paper/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsObject,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../validation/optional.decorator';

const T = PROTOCOL_RULE_RANGES.thresholdPerHour;

export class MintRateRuleDto {
  @ApiPropertyOptional({ description: 'Alert on reward-token mint rate', default: false })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: 'Alert when more reward tokens than this were minted over the last hour',
    minimum: T.min,
    maximum: T.max,
    default: 10000,
  })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(T.min)
  @Max(T.max)
  thresholdPerHour?: number;
}

export class MarketStatusRuleDto {
  @ApiPropertyOptional({ description: 'Alert when a market opens or closes for trading', default: false })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    enum: PROTOCOL_MARKETS,
    isArray: true,
    uniqueItems: true,
    default: PROTOCOL_MARKETS,
    description: 'Markets to report',
  })
  @Optional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(PROTOCOL_MARKETS.length)
  @IsIn(PROTOCOL_MARKETS, { each: true })
  markets?: ProtocolMarket[];
}

/** PUT replaces the protocol rules as a whole: fields left out take their defaults. */
export class ProtocolRulesDto {
  @ApiPropertyOptional({ type: MintRateRuleDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => MintRateRuleDto)
  mintRate?: MintRateRuleDto;

  @ApiPropertyOptional({ type: MarketStatusRuleDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => MarketStatusRuleDto)
  marketStatus?: MarketStatusRuleDto;
}

class MintRateRuleView {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() thresholdPerHour!: number;
}
class MarketStatusRuleView {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: PROTOCOL_MARKETS, isArray: true }) markets!: ProtocolMarket[];
}

export class ProtocolRulesView implements ProtocolRules {
  @ApiProperty({ type: MintRateRuleView }) mintRate!: MintRateRuleView;
  @ApiProperty({ type: MarketStatusRuleView }) marketStatus!: MarketStatusRuleView;
}
