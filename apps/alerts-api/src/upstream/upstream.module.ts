import { Module } from '@nestjs/common';
import { UpstreamController } from './upstream.controller';
import { UpstreamClient } from './upstream-client.service';

@Module({ controllers: [UpstreamController], providers: [UpstreamClient], exports: [UpstreamClient] })
export class UpstreamModule {}
