import { Module } from '@nestjs/common';
import { SessionKeyProcessor } from './session-key.processor';
import { SessionKeyService } from './session-key.service';

@Module({ providers: [SessionKeyService, SessionKeyProcessor], exports: [SessionKeyService] })
export class SessionKeysModule {}
