import { type DynamicModule, Module } from '@nestjs/common';
import { InfraModule } from '@paper/nest-infra';
import type { VenueSimConfig } from '../config/venue-sim.config';
import { ControlController } from '../control/control.controller';
import { FaultInjectionService } from '../control/fault-injection.service';
import { InfoController } from '../info/info.controller';
import { InfoService } from '../info/info.service';
import { PriceEngineService } from '../prices/price-engine.service';
import { WeightBudget } from '../weights/weight-budget';

@Module({})
export class AppModule {
  static forRoot(config: VenueSimConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [InfraModule.forRoot({ config })],
      controllers: [InfoController, ControlController],
      providers: [
        PriceEngineService,
        FaultInjectionService,
        InfoService,
        { provide: WeightBudget, useFactory: () => new WeightBudget(config.SIM_WEIGHT_PER_MINUTE) },
      ],
    };
  }
}
