import { type DynamicModule, Module } from '@nestjs/common';
import { DepositSweepService } from './deposit-sweep.service';
import { DevFundingController } from './dev-funding.controller';

/** The deposit sweep; with `devFunding` also the paper-mode /dev/faucet and /dev/deposit endpoints. */
@Module({})
export class DepositsModule {
  static forRoot(devFunding: boolean): DynamicModule {
    return {
      module: DepositsModule,
      global: true,
      providers: [DepositSweepService],
      controllers: devFunding ? [DevFundingController] : [],
      exports: [DepositSweepService],
    };
  }
}
