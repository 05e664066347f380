import { Global, Module } from '@nestjs/common';
import { AccountAuthGuard } from './account-auth.guard';
import { AccountAuthService } from './account-auth.service';

/** Bearer account tokens; global because every feature's routes are guarded by it. */
@Global()
@Module({ providers: [AccountAuthService, AccountAuthGuard], exports: [AccountAuthService, AccountAuthGuard] })
export class AuthModule {}
