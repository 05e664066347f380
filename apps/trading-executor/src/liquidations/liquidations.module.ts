import { Module } from '@nestjs/common';
import { LiquidationListener } from './liquidation.listener';
import { LiquidationService } from './liquidation.service';

@Module({ providers: [LiquidationService, LiquidationListener], exports: [LiquidationService, LiquidationListener] })
export class LiquidationsModule {}
