import { Inject, Injectable } from '@nestjs/common';
import { findActiveSessionKeySecret } from '@paper/oauth-data';
import { SessionKeyVault } from '@paper/session-key-vault';
import type { Hex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { OauthDatabase } from '../auth/oauth-database';
import { toolErrors } from '../errors/tool.error';
import { TOOLS_RUNTIME_OPTIONS, type ToolsRuntimeOptions } from '../runtime-options';

const UNLOCKED_MS = 60_000;
const UNLOCKED_LIMIT = 10_000;

/**
 * Decrypts the private part of a connection's session key (kept encrypted in the oauth schema by
 * oauth-server) just before signing. The key never leaves this process.
 */
@Injectable()
export class SessionKeySigner {
  private readonly vault: SessionKeyVault;
  private readonly unlocked = new Map<string, { account: PrivateKeyAccount; wallet: string; until: number }>();

  constructor(
    @Inject(TOOLS_RUNTIME_OPTIONS) options: ToolsRuntimeOptions,
    private readonly oauth: OauthDatabase,
  ) {
    this.vault = new SessionKeyVault(options.sessionKeyEncryptionKey, options.sessionKeyEncryptionKeysOld);
  }

  /**
   * The signing account of the decrypted key of `address` if it belongs to `wallet` and is active. Decrypted keys are
   * kept for at
   * most a minute; every call still checks the exchange's record of the key (requireSession) and the
   * executor verifies it again.
   */
  async account(address: string, wallet: string): Promise<PrivateKeyAccount> {
    const now = Date.now();
    const cached = this.unlocked.get(address);
    if (cached && cached.until > now && cached.wallet === wallet) return cached.account;
    const db = await this.oauth.get();
    const secret = address ? await findActiveSessionKeySecret(db, address) : null;
    if (!secret || secret.wallet !== wallet) {
      throw toolErrors.noTradingSession(
        'The session key of this connection is not available for signing (revoked, expired or never approved).',
      );
    }
    let account: PrivateKeyAccount;
    try {
      account = privateKeyToAccount(this.vault.decrypt(secret.encryptedPrivateKey) as Hex);
    } catch {
      throw toolErrors.noTradingSession('The session key of this connection cannot be unlocked by this service.');
    }
    if (this.unlocked.size >= UNLOCKED_LIMIT) this.unlocked.clear();
    this.unlocked.set(address, { account, wallet, until: Math.min(now + UNLOCKED_MS, secret.expiresAt.getTime()) });
    return account;
  }
}
