import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, clientIp } from '@paper/nest-infra';
import type { Request, Response } from 'express';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { renderErrorPage } from '../pages/page-layout';
import { parseBody } from '../pages/parse-body';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { setWalletSessionCookie } from '../wallet-auth/wallet-session-cookie';
import { WalletAuthService } from '../wallet-auth/wallet-auth.service';
import { approvalRequestBody, approveBody, challengeBody, proofBody } from './consent.dto';
import { ConsentError } from './consent.exception';
import { renderConsentPage } from './consent-page.view';
import { ConsentService } from './consent.service';

/** The consent page of an authorization request and the steps it calls (all bound to the interaction cookie). */
@Controller('interaction/:uid')
export class ConsentController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: OauthServerConfig,
    private readonly consent: ConsentService,
    private readonly walletAuth: WalletAuthService,
    private readonly rateLimit: RateLimitService,
  ) {}

  @Get()
  async page(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    noStore(res);
    try {
      const view = await this.consent.view(uid, req, res);
      res.type('html').send(renderConsentPage(view));
    } catch (error) {
      if (!(error instanceof ConsentError)) throw error;
      res.status(error.status).type('html').send(renderErrorPage('This connection request has expired', error.message));
    }
  }

  @Post('challenge')
  @HttpCode(200)
  async challenge(
    @Param('uid') uid: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    noStore(res);
    await this.rateLimit.take('sign-in', clientIp(req));
    const { wallet } = parseBody(challengeBody, body);
    return this.consent.challenge(uid, wallet, req, res);
  }

  @Post('proof')
  @HttpCode(200)
  async proof(
    @Param('uid') uid: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { challengeId, signature } = parseBody(proofBody, body);
    const wallet = await this.consent.proof(uid, challengeId, signature, req, res);
    setWalletSessionCookie(res, await this.walletAuth.createSession(wallet), this.secure());
    noStore(res);
    return { wallet };
  }

  @Post('approval')
  @HttpCode(200)
  async approval(
    @Param('uid') uid: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const parsed = parseBody(approvalRequestBody, body);
    noStore(res);
    return this.consent.prepareApproval(uid, parsed, req, res);
  }

  @Post('approve')
  @HttpCode(200)
  async approve(
    @Param('uid') uid: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const approval = parseBody(approveBody, body);
    noStore(res);
    return { redirectTo: await this.consent.approve(uid, approval, req, res) };
  }

  /** Works as a plain HTML form (303 to the client) and from the page script (JSON). */
  @Post('deny')
  async deny(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    noStore(res);
    const wantsJson = Boolean(req.is('application/json'));
    try {
      const redirectTo = await this.consent.deny(uid, req, res);
      if (wantsJson) res.status(200).json({ redirectTo });
      else res.redirect(303, redirectTo);
    } catch (error) {
      if (wantsJson || !(error instanceof ConsentError)) throw error;
      res.status(error.status).type('html').send(renderErrorPage('This connection request has expired', error.message));
    }
  }

  private secure(): boolean {
    return this.config.PUBLIC_BASE_URL.startsWith('https:');
  }
}

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
}
