/**
 * Base shape of every feature exception: a machine code, an HTTP status and a message for the end user.
 * Features declare one subclass each with their own code enum; the global filter renders any of them.
 */
export class CodedError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export function isCodedError(value: unknown): value is CodedError {
  return value instanceof CodedError;
}
