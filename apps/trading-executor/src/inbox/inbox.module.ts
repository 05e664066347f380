import { Module } from '@nestjs/common';
import { IntentsModule } from '../intents/intents.module';
import { OwnerActionsModule } from '../owner-actions/owner-actions.module';
import { InboxSweeper } from './inbox-sweeper.service';

/** The sweeper of the inbox (accepted intents and owner actions whose queue job is missing). */
@Module({ imports: [IntentsModule, OwnerActionsModule], providers: [InboxSweeper] })
export class InboxModule {}
