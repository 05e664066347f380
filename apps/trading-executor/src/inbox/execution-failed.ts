/** The refusal of an intent or owner action whose execution failed MAX_EXECUTION_ATTEMPTS times. */
export const EXECUTION_FAILED = {
  reason: 'execution_failed',
  message:
    'The exchange could not execute this and nothing of it was executed (every attempt was rolled back); submit it ' +
    'again.',
} as const;
