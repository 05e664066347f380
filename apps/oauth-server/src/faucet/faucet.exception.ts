import { CodedError } from '@paper/contracts';

export enum FaucetErrorCode {
  PaperModeOff = 'paper_mode_off',
  FaucetUnavailable = 'faucet_unavailable',
}

/** Errors of the paper-mode faucet button. */
export class FaucetError extends CodedError<FaucetErrorCode> {
  constructor(code: FaucetErrorCode, message: string) {
    super(code, code === FaucetErrorCode.PaperModeOff ? 404 : 502, message);
  }
}
