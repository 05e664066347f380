import { Inject, Injectable } from '@nestjs/common';
import { AlertsAccountEntity } from '@paper/alerts-data';
import { AlertsErrorCode } from '@paper/contracts';
import { DataSource } from 'typeorm';
import { accountIdOfToken, AlertsException, hashToken, tokenMatches } from '@paper/alerts-accounts';

const DUMMY_HASH = hashToken('alrt_dummy');

/** Resolves `Authorization: Bearer <token>` to an account id. */
@Injectable()
export class AccountAuthService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The bearer token of an Authorization header, or undefined when there is none. */
  static bearer(header: string | undefined): string | undefined {
    if (!header) return undefined;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : '';
  }

  async authenticate(header: string | undefined): Promise<string> {
    const token = AccountAuthService.bearer(header);
    if (token === undefined) {
      throw new AlertsException(
        AlertsErrorCode.Unauthorized,
        'This endpoint needs your account token: send Authorization: Bearer <ACCOUNT_TOKEN> (from POST /api/accounts).',
        {
          'WWW-Authenticate': 'Bearer realm="alerts"',
        },
      );
    }
    const accountId = accountIdOfToken(token);
    const account = accountId
      ? await this.dataSource.getRepository(AlertsAccountEntity).findOneBy({ id: accountId })
      : null;
    const matches = tokenMatches(token, account?.tokenHash ?? DUMMY_HASH);
    if (!account || !matches) {
      throw new AlertsException(
        AlertsErrorCode.Unauthorized,
        'The account token is not valid (or its account was deleted). Create an account with POST /api/accounts.',
        {
          'WWW-Authenticate': 'Bearer realm="alerts", error="invalid_token"',
        },
      );
    }
    return account.id;
  }
}
