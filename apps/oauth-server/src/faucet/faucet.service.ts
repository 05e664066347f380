import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '@paper/nest-infra';
import type { OauthServerConfig } from '../config/oauth-server.config';
import { FaucetError, FaucetErrorCode } from './faucet.exception';

export interface FaucetResult {
  wallet: string;
  usdc: string;
}

/** Paper mode only: credits test USDC to a wallet's simulated chain balance and deposits it on the exchange. */
@Injectable()
export class FaucetService {
  private readonly logger = new Logger('Faucet');

  constructor(@Inject(APP_CONFIG) private readonly config: OauthServerConfig) {}

  async fund(wallet: string): Promise<FaucetResult> {
    if (!this.config.PAPER_MODE)
      throw new FaucetError(FaucetErrorCode.PaperModeOff, 'The faucet exists only in paper mode.');
    const usdc = this.config.PAPER_FAUCET_USDC;
    await this.call('/dev/faucet', { wallet, usdc });
    await this.call('/dev/deposit', { wallet, usdc, sweep: true });
    return { wallet, usdc };
  }

  private async call(path: string, body: object): Promise<void> {
    let status: number | string;
    try {
      const res = await fetch(`${this.config.EXECUTOR_INTERNAL_URL}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10000),
      });
      if (res.ok) return;
      status = `${res.status} ${(await res.text()).slice(0, 200)}`;
    } catch (error) {
      status = (error as Error).message;
    }
    this.logger.warn(`faucet call ${path} failed: ${status}`);
    throw new FaucetError(
      FaucetErrorCode.FaucetUnavailable,
      'The test-money faucet is not answering right now. Please try again in a minute.',
    );
  }
}
