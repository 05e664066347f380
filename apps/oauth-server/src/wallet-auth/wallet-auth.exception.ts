import { CodedError } from '@paper/contracts';

export enum WalletAuthErrorCode {
  InvalidRequest = 'invalid_request',
  ChallengeExpired = 'challenge_expired',
  InvalidSignature = 'invalid_signature',
  NotSignedIn = 'not_signed_in',
}

const STATUS: Record<WalletAuthErrorCode, number> = {
  [WalletAuthErrorCode.InvalidRequest]: 400,
  [WalletAuthErrorCode.ChallengeExpired]: 400,
  [WalletAuthErrorCode.InvalidSignature]: 400,
  [WalletAuthErrorCode.NotSignedIn]: 401,
};

/** Errors of proving wallet ownership (sign-in challenges and wallet sessions). */
export class WalletAuthError extends CodedError<WalletAuthErrorCode> {
  constructor(code: WalletAuthErrorCode, message: string) {
    super(code, STATUS[code], message);
  }
}
