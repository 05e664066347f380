import { SCOPES } from '@paper/contracts';

/** What each scope lets an app do, in plain words for the consent page. */
export function describeScope(scope: string, wallet: string): { title: string; detail: string } {
  switch (scope) {
    case SCOPES.read:
      return { title: 'See your account', detail: `Read balances, positions, orders and history of ${wallet}.` };
    case SCOPES.write:
      return {
        title: 'Trade within your limits',
        detail: `Open and close positions with the funds of ${wallet}, only within the limits you set below. It can never withdraw.`,
      };
    case SCOPES.offline:
      return { title: 'Stay connected', detail: 'Keep access while you are away, until the connection expires or you revoke it.' };
    case 'openid':
      return { title: 'Know your wallet address', detail: 'Learn which wallet you connected.' };
    default:
      return { title: scope, detail: 'A permission this service does not know; it will not be granted.' };
  }
}

export function shortAddress(wallet: string): string {
  return `${wallet.slice(0, 6)}…${wallet.slice(-4)}`;
}
