import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { APP_CONFIG, clientIp } from '@paper/nest-infra';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { challengeBody, proofBody } from '../consent/consent.dto';
import { FaucetService } from '../faucet/faucet.service';
import { renderErrorPage } from '../pages/page-layout';
import { parseBody } from '../pages/parse-body';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { WalletAuthError, WalletAuthErrorCode } from '../wallet-auth/wallet-auth.exception';
import { WalletAuthService } from '../wallet-auth/wallet-auth.service';
import {
  clearWalletSessionCookie,
  readCookie,
  setWalletSessionCookie,
  WALLET_SESSION_COOKIE,
} from '../wallet-auth/wallet-session-cookie';
import { noticeFor, renderConnectionsPage } from './connections-page.view';
import { ConnectionsService } from './connections.service';
import type { RevocationOutcome } from '../session-keys/session-key-revocations.service';

/** Retry-After of a revocation the exchange has not confirmed within the wait. */
const REVOCATION_RETRY_AFTER_SECONDS = 5;

const formBody = z.object({ formToken: z.string().min(1) }).passthrough();

/** /connections: a wallet owner lists and revokes connections and trading keys; plus the paper faucet. */
@Controller('connections')
export class ConnectionsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: OauthServerConfig,
    private readonly connections: ConnectionsService,
    private readonly walletAuth: WalletAuthService,
    private readonly faucet: FaucetService,
    private readonly rateLimit: RateLimitService,
  ) {}

  @Get()
  async page(@Req() req: Request, @Res() res: Response, @Query('done') done?: string): Promise<void> {
    const token = readCookie(req, WALLET_SESSION_COOKIE);
    const wallet = await this.walletAuth.sessionWallet(token);
    const listing = wallet ? await this.connections.list(wallet) : { connections: [], keys: [] };
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(
      renderConnectionsPage({
        wallet: wallet ?? null,
        formToken: wallet && token ? this.walletAuth.formToken(token) : null,
        ...listing,
        notice: noticeFor(done),
        paperMode: this.config.PAPER_MODE,
      }),
    );
  }

  @Post('challenge')
  @HttpCode(200)
  async challenge(@Body() body: unknown, @Req() req: Request) {
    await this.rateLimit.take('sign-in', clientIp(req));
    const { wallet } = parseBody(challengeBody, body);
    return this.walletAuth.issueChallenge(wallet, null);
  }

  @Post('proof')
  @HttpCode(200)
  async proof(@Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    const { challengeId, signature } = parseBody(proofBody, body);
    const wallet = await this.walletAuth.verifyChallenge(challengeId, signature, null);
    setWalletSessionCookie(res, await this.walletAuth.createSession(wallet), this.secure());
    return { wallet };
  }

  @Post('sign-out')
  async signOut(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!(await this.signedIn(req, res))) return;
    await this.walletAuth.endSession(readCookie(req, WALLET_SESSION_COOKIE));
    clearWalletSessionCookie(res, this.secure());
    res.redirect(303, '/connections?done=signed-out');
  }

  @Post('grants/:grantId/revoke')
  async revokeConnection(@Param('grantId') grantId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const wallet = await this.signedIn(req, res);
    if (!wallet) return;
    this.answerRevocation(res, await this.connections.revokeConnection(wallet, grantId), 'connection');
  }

  @Post('keys/:address/revoke')
  async revokeKey(@Param('address') address: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const wallet = await this.signedIn(req, res);
    if (!wallet) return;
    const outcome = /^0x[0-9a-fA-F]{40}$/.test(address)
      ? await this.connections.revokeKey(wallet, address)
      : 'not-found';
    this.answerRevocation(res, outcome, 'key');
  }

  /** Paper mode: fund the signed-in wallet with test USDC (used by the consent and connections pages). */
  @Post('faucet')
  @HttpCode(200)
  async fund(@Req() req: Request) {
    const wallet = await this.walletAuth.sessionWallet(readCookie(req, WALLET_SESSION_COOKIE));
    if (!wallet) throw new WalletAuthError(WalletAuthErrorCode.NotSignedIn, 'Sign in with your wallet first.');
    return this.faucet.fund(wallet);
  }

  /**
   * "Revoked" only once the exchange has the key revoked; past the wait 503 with Retry-After (the revocation
   * is recorded and completes in the background; posting again waits for it again).
   */
  private answerRevocation(res: Response, outcome: RevocationOutcome, what: 'connection' | 'key'): void {
    if (outcome !== 'pending') {
      res.redirect(303, `/connections?done=${outcome === 'revoked' ? what : 'not-found'}`);
      return;
    }
    res
      .status(503)
      .setHeader('Retry-After', String(REVOCATION_RETRY_AFTER_SECONDS))
      .type('html')
      .send(
        renderErrorPage(
          'Revocation in progress',
          `The ${what === 'key' ? 'trading key' : 'connection'} is revoked here and the app can no longer use it, but the exchange has not confirmed it yet. It completes on its own.`,
          'Open your connections page again in a few seconds to see it confirmed.',
        ),
      );
  }

  /** The signed-in wallet of a form post (checked against the session's form token), or a 401 page. */
  private async signedIn(req: Request, res: Response): Promise<string | undefined> {
    const token = readCookie(req, WALLET_SESSION_COOKIE);
    const wallet = await this.walletAuth.sessionWallet(token);
    const form = formBody.safeParse(req.body);
    if (wallet && token && form.success && form.data.formToken === this.walletAuth.formToken(token)) return wallet;
    res
      .status(401)
      .type('html')
      .send(
        renderErrorPage(
          'Please sign in again',
          'Your sign-in has expired, so nothing was changed.',
          'Open your connections page and sign in with your wallet again.',
        ),
      );
    return undefined;
  }

  private secure(): boolean {
    return this.config.PUBLIC_BASE_URL.startsWith('https:');
  }
}
