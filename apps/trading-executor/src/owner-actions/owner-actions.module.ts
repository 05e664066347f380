import { type DynamicModule, Module } from '@nestjs/common';
import { DevOwnerActionsController } from './dev-owner-actions.controller';
import { OwnerActionProcessor } from './owner-action.processor';
import { OwnerActionService } from './owner-action.service';
import { OwnerActionSubmitter } from './owner-action.submitter';

/** The owner-actions worker; with `devEndpoints` also the paper-mode /dev/owner-actions endpoints. */
@Module({})
export class OwnerActionsModule {
  static forRoot(devEndpoints: boolean): DynamicModule {
    return {
      module: OwnerActionsModule,
      providers: [OwnerActionService, OwnerActionProcessor, ...(devEndpoints ? [OwnerActionSubmitter] : [])],
      controllers: devEndpoints ? [DevOwnerActionsController] : [],
      exports: [OwnerActionService],
    };
  }
}
