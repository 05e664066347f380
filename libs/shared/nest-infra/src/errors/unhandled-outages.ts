import type { Logger } from 'pino';
import { isDependencyOutage } from './dependency-outage';

/**
 * What the process does with a promise rejection nobody handled: a dependency's outage (a command in
 * flight when the connection dropped, flushed by its client with no caller left waiting; ioredis does
 * this with its own internal commands when a reconnection fails, redis/ioredis#1791) is logged and the
 * process carries on, the connection reconnecting by itself; anything else is a bug and ends the
 * process as Node does by default.
 */
export function unhandledRejectionHandler(logger: Pick<Logger, 'warn'>): (reason: unknown) => void {
  let last = 0;
  return (reason: unknown) => {
    if (!isDependencyOutage(reason)) throw reason;
    if (Date.now() - last < 5000) return;
    last = Date.now();
    logger.warn(
      `a dependency's error reached no handler (the connection recovers by itself): ` +
        `${(reason as Error)?.message ?? String(reason)}`,
    );
  };
}

let installed = false;

/** Installs {@link unhandledRejectionHandler} once per process. */
export function survivesDependencyRejections(logger: Pick<Logger, 'warn'>): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', unhandledRejectionHandler(logger));
}
