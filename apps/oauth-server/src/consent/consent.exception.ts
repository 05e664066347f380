import { CodedError } from '@paper/contracts';

export enum ConsentErrorCode {
  InteractionExpired = 'interaction_expired',
  WalletNotVerified = 'wallet_not_verified',
  ApprovalNotPrepared = 'approval_not_prepared',
  ApprovalSignatureInvalid = 'approval_signature_invalid',
  SessionKeyNotConfirmed = 'session_key_not_confirmed',
  SignatureRequired = 'signature_required',
  ApprovalInProgress = 'approval_in_progress',
}

const STATUS: Record<ConsentErrorCode, number> = {
  [ConsentErrorCode.InteractionExpired]: 410,
  [ConsentErrorCode.WalletNotVerified]: 409,
  [ConsentErrorCode.ApprovalNotPrepared]: 409,
  [ConsentErrorCode.ApprovalSignatureInvalid]: 400,
  [ConsentErrorCode.SessionKeyNotConfirmed]: 503,
  [ConsentErrorCode.SignatureRequired]: 400,
  [ConsentErrorCode.ApprovalInProgress]: 409,
};

/** Errors of the consent flow, worded for the wallet owner reading the page. */
export class ConsentError extends CodedError<ConsentErrorCode> {
  constructor(code: ConsentErrorCode, message: string) {
    super(code, STATUS[code], message);
  }
}

export const INTERACTION_EXPIRED_MESSAGE =
  'This connection request has expired or was opened in another browser. Go back to the app and start connecting ' +
  'again.';
