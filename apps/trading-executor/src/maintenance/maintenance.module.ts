import { Module } from '@nestjs/common';
import { IntentsModule } from '../intents/intents.module';
import { DailyStatsService } from './daily-stats.service';
import { EquitySnapshotService } from './equity-snapshot.service';
import { HarvestService } from './harvest.service';
import { MaintenanceProcessor } from './maintenance.processor';

@Module({
  imports: [IntentsModule],
  providers: [HarvestService, EquitySnapshotService, DailyStatsService, MaintenanceProcessor],
})
export class MaintenanceModule {}
