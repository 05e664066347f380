import { Module } from '@nestjs/common';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';

@Module({ controllers: [DeliveriesController], providers: [DeliveriesService], exports: [DeliveriesService] })
export class DeliveriesModule {}
