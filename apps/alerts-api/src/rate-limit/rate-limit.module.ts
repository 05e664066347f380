import { Module } from '@nestjs/common';
import { AlertsRateLimits } from './alerts-rate-limits';

@Module({ providers: [AlertsRateLimits], exports: [AlertsRateLimits] })
export class RateLimitModule {}
