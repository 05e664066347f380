import { CodedError } from '@paper/contracts';

export enum DevFundingErrorCode {
  InvalidArguments = 'invalid_arguments',
  InsufficientChainBalance = 'insufficient_chain_balance',
}

const STATUS: Record<DevFundingErrorCode, number> = {
  [DevFundingErrorCode.InvalidArguments]: 400,
  [DevFundingErrorCode.InsufficientChainBalance]: 400,
};

/** Errors of the paper-mode funding endpoints, rendered in the tool envelope by the global filter. */
export class DevFundingError extends CodedError<DevFundingErrorCode> {
  constructor(code: DevFundingErrorCode, message: string) {
    super(code, STATUS[code], message);
  }
}
