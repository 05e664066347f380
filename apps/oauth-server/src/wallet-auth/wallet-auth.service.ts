import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_CHAIN_ID } from '@paper/exchange-signing';
import { APP_CONFIG } from '@paper/nest-infra';
import {
  consumeWalletChallenge,
  deleteWalletSession,
  WalletChallengeEntity,
  WalletSessionEntity,
  walletOfSession,
} from '@paper/oauth-data';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Hex, verifyMessage } from 'viem';
import { DataSource } from 'typeorm';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { signInMessage } from './sign-in-message';
import { WalletAuthError, WalletAuthErrorCode } from './wallet-auth.exception';

const CHALLENGE_TTL_MS = 10 * 60 * 1000;
export const WALLET_SESSION_TTL_MS = 12 * 3600 * 1000;

export interface Challenge {
  challengeId: string;
  message: string;
}

/** Proof of wallet ownership: a server-issued, single-use sign-in message verified with the wallet's signature. */
@Injectable()
export class WalletAuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: OauthServerConfig,
    private readonly dataSource: DataSource,
  ) {}

  async issueChallenge(wallet: string, interactionUid: string | null): Promise<Challenge> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
    const message = signInMessage({
      publicBaseUrl: this.config.PUBLIC_BASE_URL,
      wallet,
      nonce: randomBytes(12).toString('hex'),
      issuedAt: now,
      expiresAt,
      chainId: DEFAULT_CHAIN_ID,
    });
    const challengeId = randomUUID();
    await this.dataSource
      .getRepository(WalletChallengeEntity)
      .insert({ id: challengeId, wallet, message, interactionUid, expiresAt, consumedAt: null });
    return { challengeId, message };
  }

  /** Consumes the challenge (single use) and returns the proven lower-case wallet. */
  async verifyChallenge(challengeId: string, signature: Hex, interactionUid: string | null): Promise<string> {
    const challenge = await consumeWalletChallenge(this.dataSource, challengeId, interactionUid);
    if (!challenge) {
      throw new WalletAuthError(
        WalletAuthErrorCode.ChallengeExpired,
        'That sign-in request has expired or was already used. Please sign in again.',
      );
    }
    const valid = await verifyMessage({
      address: challenge.wallet as Hex,
      message: challenge.message,
      signature,
    }).catch(() => false);
    if (!valid) {
      throw new WalletAuthError(
        WalletAuthErrorCode.InvalidSignature,
        'The signature does not match this wallet. Make sure you sign with the wallet you connected.',
      );
    }
    return challenge.wallet;
  }

  /** Starts a signed-in session for the pages; returns the cookie token (only its hash is stored). */
  async createSession(wallet: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.dataSource
      .getRepository(WalletSessionEntity)
      .insert({ id: hashToken(token), wallet, expiresAt: new Date(Date.now() + WALLET_SESSION_TTL_MS) });
    return token;
  }

  async sessionWallet(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined;
    return walletOfSession(this.dataSource, hashToken(token));
  }

  async endSession(token: string | undefined): Promise<void> {
    if (token) await deleteWalletSession(this.dataSource, hashToken(token));
  }

  /** A per-session token for the pages' forms (defence in depth next to SameSite cookies). */
  formToken(sessionToken: string): string {
    return createHash('sha256').update(`form:${sessionToken}`).digest('base64url').slice(0, 32);
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
