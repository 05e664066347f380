import { type DynamicModule, Module } from '@nestjs/common';
import { DevOwnerActionsController } from './dev-owner-actions.controller';
import { OwnerActionProcessor } from './owner-action.processor';
import { OwnerActionService } from './owner-action.service';
import { OwnerActionSubmitter } from './owner-action.submitter';

/** The owner-actions worker and service. */
@Module({ providers: [OwnerActionService, OwnerActionProcessor], exports: [OwnerActionService] })
export class OwnerActionsModule {}

/** The paper-mode /dev/owner-actions endpoints (registered only with the other development endpoints). */
@Module({})
export class DevOwnerActionsModule {
  static forRoot(enabled: boolean): DynamicModule {
    return {
      module: DevOwnerActionsModule,
      imports: [OwnerActionsModule],
      providers: enabled ? [OwnerActionSubmitter] : [],
      controllers: enabled ? [DevOwnerActionsController] : [],
    };
  }
}
