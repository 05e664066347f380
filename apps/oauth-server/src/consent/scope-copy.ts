import { SCOPES } from '@paper/contracts';

export interface PermissionCopy {
  /** The scope it explains; absent for "Stay connected", which is about the refresh token. */
  scope?: string;
  title: string;
  detail: string;
}

/**
 * What each scope lets an app do, in plain words (consent and connections pages); `offline_access` is
 * `stayConnectedCopy`.
 */
export function describeScope(scope: string): PermissionCopy {
  switch (scope) {
    case SCOPES.read:
      return {
        title: 'See your account',
        detail: 'Read the balances, positions, orders and history of the wallet you connect.',
      };
    case SCOPES.write:
      return {
        title: 'Trade within your limits',
        detail:
          'Open and close positions with the funds of the wallet you connect, only within the limits you set in the ' +
          'last step. It can never withdraw.',
      };
    case 'openid':
      return { title: 'Know your wallet address', detail: 'Learn which wallet you connected.' };
    default:
      return { title: scope, detail: 'A permission this service does not know; it will not be granted.' };
  }
}

/** How long a connection lasts without asking again (the app receives a refresh token). */
export function stayConnectedCopy(trading: boolean): PermissionCopy {
  return {
    title: 'Stay connected',
    detail: trading
      ? 'Keep access without asking you again until its trading key expires (after the lifetime you choose, at most ' +
        '30 days) or you revoke the connection on your connections page.'
      : 'Keep access without asking you again for up to 30 days, or until you revoke the connection on your ' +
        'connections page.',
  };
}

/** The permissions an app asks for or holds, in plain words; `offline_access` is covered by "Stay connected". */
export function permissionsFor(scopes: readonly string[], staysConnected: boolean): PermissionCopy[] {
  const asked = scopes.filter((s) => s !== SCOPES.offline).map((scope) => ({ scope, ...describeScope(scope) }));
  return staysConnected ? [...asked, stayConnectedCopy(scopes.includes(SCOPES.write))] : asked;
}
