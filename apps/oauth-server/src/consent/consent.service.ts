import { Inject, Injectable, Logger } from '@nestjs/common';
import { mcpResource, SCOPES } from '@paper/contracts';
import { verifyApproval } from '@paper/exchange-signing';
import { APP_CONFIG } from '@paper/nest-infra';
import { claimConsentRequest, ConsentRequestEntity } from '@paper/oauth-data';
import { SessionKeyVault } from '@paper/session-key-vault';
import type { Request, Response } from 'express';
import type { Interaction } from 'oidc-provider';
import { DataSource } from 'typeorm';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { clientIdHost, redirectHostLabel } from '../pages/redirect-host';
import { OidcProviderService } from '../provider/oidc-provider.service';
import { issuesRefreshToken } from '../provider/provider-configuration';
import { SessionKeyRegistrationError, SessionKeysService } from '../session-keys/session-keys.service';
import { type Challenge, WalletAuthService } from '../wallet-auth/wallet-auth.service';
import { approvalFor, browserTypedData } from './approval-typed-data';
import type { ApprovalRequestBody, ApproveBody } from './consent.dto';
import { ConsentError, ConsentErrorCode, INTERACTION_EXPIRED_MESSAGE } from './consent.exception';

const KNOWN_SCOPES = new Set<string>(['openid', SCOPES.offline, SCOPES.read, SCOPES.write]);
const DAY_MS = 24 * 3600 * 1000;

export interface ConsentView {
  uid: string;
  clientId: string;
  clientName: string;
  /** The host of a client ID metadata document client's `client_id` URL (undefined for a registered client). */
  clientHost?: string;
  redirectHost: string;
  scopes: string[];
  resources: string[];
  tradeRequested: boolean;
  /** The client receives a refresh token (it registered the refresh_token grant). */
  staysConnected: boolean;
  wallet: string | null;
  paperMode: boolean;
}

export interface PreparedApproval {
  sessionKey: string;
  expiresAt: string;
  typedData: unknown;
}

/** The consent flow: prove the wallet, choose guardrails, sign the session-key approval, finish the grant. */
@Injectable()
export class ConsentService {
  private readonly logger = new Logger('Consent');

  constructor(
    @Inject(APP_CONFIG) private readonly config: OauthServerConfig,
    private readonly dataSource: DataSource,
    private readonly oidc: OidcProviderService,
    private readonly walletAuth: WalletAuthService,
    private readonly sessionKeys: SessionKeysService,
    private readonly vault: SessionKeyVault,
  ) {}

  async view(uid: string, req: Request, res: Response): Promise<ConsentView> {
    const details = await this.details(uid, req, res);
    const client = await this.oidc.provider.Client.find(String(details.params['client_id']));
    const scopes = requestedScopes(details).filter((s) => KNOWN_SCOPES.has(s));
    const request = await this.requests().findOneBy({ uid });
    return {
      uid,
      clientId: String(details.params['client_id']),
      clientName: (client?.clientName as string | undefined)?.trim() || 'An unnamed app',
      clientHost: clientIdHost(String(details.params['client_id'])),
      redirectHost: redirectHostLabel(String(details.params['redirect_uri'])),
      scopes,
      resources: this.resources(details),
      tradeRequested: scopes.includes(SCOPES.write),
      staysConnected: client ? issuesRefreshToken(client) : false,
      wallet: request?.wallet ?? null,
      paperMode: this.config.PAPER_MODE,
    };
  }

  async challenge(uid: string, wallet: string, req: Request, res: Response): Promise<Challenge> {
    await this.details(uid, req, res);
    return this.walletAuth.issueChallenge(wallet, uid);
  }

  /** Verifies the sign-in signature and binds the wallet to this consent request. */
  async proof(uid: string, challengeId: string, signature: Hex, req: Request, res: Response): Promise<string> {
    const details = await this.details(uid, req, res);
    const wallet = await this.walletAuth.verifyChallenge(challengeId, signature, uid);
    await this.requests().upsert(
      {
        uid,
        wallet,
        sessionKeyAddress: null,
        encryptedPrivateKey: null,
        guardrails: null,
        keyExpiresAt: null,
        expiresAt: new Date((details.exp ?? 0) * 1000),
      },
      ['uid'],
    );
    return wallet;
  }

  /** Generates the session key server-side and returns the typed data the owner signs to approve it. */
  async prepareApproval(
    uid: string,
    body: ApprovalRequestBody,
    req: Request,
    res: Response,
  ): Promise<PreparedApproval> {
    await this.details(uid, req, res);
    const request = await this.verifiedRequest(uid);
    if (request.approvingUntil && request.approvingUntil.getTime() > Date.now()) throw approvalInProgress();
    const privateKey = generatePrivateKey();
    const sessionKey = privateKeyToAccount(privateKey).address.toLowerCase();
    const keyExpiresAt = new Date(Math.floor((Date.now() + body.expiresInDays * DAY_MS) / 1000) * 1000);
    await this.requests().update(
      { uid },
      {
        sessionKeyAddress: sessionKey,
        encryptedPrivateKey: this.vault.encrypt(privateKey),
        guardrails: body.guardrails,
        keyExpiresAt,
      },
    );
    const approval = approvalFor(request.wallet!, sessionKey, body.guardrails, keyExpiresAt);
    return { sessionKey, expiresAt: keyExpiresAt.toISOString(), typedData: browserTypedData(approval) };
  }

  /**
   * Verifies the approval, registers the key with the exchange, creates the grant; returns where to go next.
   * The owner may answer a request to trade with read-only access: the grant then has no trade:write.
   */
  async approve(uid: string, approval: ApproveBody, req: Request, res: Response): Promise<string> {
    const details = await this.details(uid, req, res);
    const request = await this.claim(uid);
    try {
      const redirectTo = await this.completeApproval(uid, request, approval, details, req, res);
      await this.requests().delete({ uid });
      return redirectTo;
    } catch (error) {
      await this.requests().update({ uid }, { approvingUntil: null });
      throw error;
    }
  }

  private async completeApproval(
    uid: string,
    request: ConsentRequestEntity,
    approval: ApproveBody,
    details: Interaction,
    req: Request,
    res: Response,
  ): Promise<string> {
    const wallet = request.wallet!;
    const clientId = String(details.params['client_id']);
    const requested = requestedScopes(details).filter((s) => KNOWN_SCOPES.has(s));
    const scopes = approval.readOnly ? requested.filter((s) => s !== SCOPES.write) : requested;
    const trading = scopes.includes(SCOPES.write);
    const signature = approval.signature;
    if (
      trading &&
      (!request.sessionKeyAddress || !request.guardrails || !request.keyExpiresAt || !request.encryptedPrivateKey)
    ) {
      throw new ConsentError(ConsentErrorCode.ApprovalNotPrepared, 'Choose your limits first, then sign the approval.');
    }
    if (trading && !signature)
      throw new ConsentError(ConsentErrorCode.SignatureRequired, 'Sign the approval in your wallet to continue.');
    if (trading) {
      const approval = approvalFor(wallet, request.sessionKeyAddress!, request.guardrails!, request.keyExpiresAt!);
      if (!(await verifyApproval(approval, signature!))) {
        throw new ConsentError(
          ConsentErrorCode.ApprovalSignatureInvalid,
          'The approval signature does not match your wallet and the limits shown. Nothing was approved; please sign ' +
            'again.',
        );
      }
    }

    const { provider } = this.oidc;
    // A trading connection lasts as long as its session key; a read-only one the default 30 days.
    const expiresIn = trading
      ? Math.max(1, Math.ceil((request.keyExpiresAt!.getTime() - Date.now()) / 1000))
      : undefined;
    const grant = new provider.Grant({
      accountId: wallet,
      clientId,
      ...(expiresIn ? { expiresIn } : {}),
    } as ConstructorParameters<typeof provider.Grant>[0]);
    // Every scope is also one of the provider's own scopes (so metadata lists them); the access token's
    // scope comes from the resource scopes.
    const tradeScopes = scopes.filter((s) => s === SCOPES.read || s === SCOPES.write);
    if (scopes.length) grant.addOIDCScope(scopes.join(' '));
    if (tradeScopes.length)
      for (const resource of this.resources(details)) grant.addResourceScope(resource, tradeScopes.join(' '));
    // What the owner declined is recorded as such, so the provider does not ask again for it.
    const declined = requested.filter((s) => !scopes.includes(s));
    if (declined.length) {
      grant.rejectOIDCScope(declined.join(' '));
      for (const resource of this.resources(details)) grant.rejectResourceScope(resource, declined.join(' '));
    }
    const grantId = await grant.save();

    if (trading) {
      const client = await provider.Client.find(clientId);
      try {
        await this.sessionKeys.register({
          wallet,
          address: request.sessionKeyAddress!,
          encryptedPrivateKey: request.encryptedPrivateKey!,
          guardrails: request.guardrails!,
          expiresAt: request.keyExpiresAt!,
          approvalSignature: signature!,
          clientId,
          grantId,
          label: ((client?.clientName as string | undefined) ?? clientId).slice(0, 120),
        });
      } catch (error) {
        await grant.destroy();
        if (!(error instanceof SessionKeyRegistrationError)) throw error;
        if (error.message !== 'timeout')
          await this.requests().update({ uid }, { sessionKeyAddress: null, encryptedPrivateKey: null });
        throw new ConsentError(
          ConsentErrorCode.SessionKeyNotConfirmed,
          error.message === 'timeout'
            ? 'The exchange did not confirm your new trading key in time. Nothing was approved yet; please press ' +
                'Approve again in a moment.'
            : `The exchange refused the new trading key: ${error.message.replace(/\.?$/, '.')} Nothing was approved; please review your limits and sign again.`,
        );
      }
    }
    this.logger.log(`connection approved: client ${clientId}, wallet ${wallet}, grant ${grantId}`);
    return provider.interactionResult(
      req,
      res,
      { login: { accountId: wallet }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /** The owner said no: the client receives access_denied. */
  async deny(uid: string, req: Request, res: Response): Promise<string> {
    await this.details(uid, req, res);
    await this.requests().delete({ uid });
    return this.oidc.provider.interactionResult(
      req,
      res,
      { error: 'access_denied', error_description: 'The wallet owner declined the connection request.' },
      { mergeWithLastSubmission: false },
    );
  }

  private async details(uid: string, req: Request, res: Response): Promise<Interaction> {
    let details: Interaction;
    try {
      details = await this.oidc.provider.interactionDetails(req, res);
    } catch {
      throw new ConsentError(ConsentErrorCode.InteractionExpired, INTERACTION_EXPIRED_MESSAGE);
    }
    if (details.uid !== uid) throw new ConsentError(ConsentErrorCode.InteractionExpired, INTERACTION_EXPIRED_MESSAGE);
    return details;
  }

  /** Marks the request as being approved (one submission at a time, across replicas) and returns it. */
  private async claim(uid: string): Promise<ConsentRequestEntity> {
    const holdSeconds = Math.ceil(this.config.SESSION_KEY_REGISTRATION_TIMEOUT_MS / 1000) + 30;
    if (!(await claimConsentRequest(this.dataSource, uid, holdSeconds))) {
      await this.verifiedRequest(uid);
      throw approvalInProgress();
    }
    return (await this.requests().findOneBy({ uid }))!;
  }

  private async verifiedRequest(uid: string): Promise<ConsentRequestEntity> {
    const request = await this.requests().findOneBy({ uid });
    if (!request?.wallet)
      throw new ConsentError(ConsentErrorCode.WalletNotVerified, 'Connect your wallet and sign in first.');
    return request;
  }

  private resources(details: Interaction): string[] {
    const resource = details.params['resource'];
    if (Array.isArray(resource)) return resource.map(String);
    return typeof resource === 'string' && resource ? [resource] : [mcpResource(this.config.PUBLIC_BASE_URL)];
  }

  private requests() {
    return this.dataSource.getRepository(ConsentRequestEntity);
  }
}

function requestedScopes(details: Interaction): string[] {
  return String(details.params['scope'] ?? '')
    .split(' ')
    .filter(Boolean);
}

function approvalInProgress(): ConsentError {
  return new ConsentError(
    ConsentErrorCode.ApprovalInProgress,
    'Your approval is already being registered. Wait a moment; this page will continue on its own.',
  );
}
