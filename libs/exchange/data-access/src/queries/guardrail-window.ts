/**
 * The guardrails' day: a session key's daily notional limit counts what the wallet opened since UTC
 * midnight of the statement's clock. The one definition of that window, used by the tool API's checks and
 * report and by the executor's batch admission (SQL fragment over `exchange.positions`, alias optional).
 */
export function openedTodaySql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}opened_at >= (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
}
