import type { AlertKind } from '@paper/alerts-data';
import { createHash } from 'node:crypto';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The event id of an alert: the same inputs always give the same id, so a poll that runs twice (a
 * restart, a feed overlap, a second replica) cannot create a second alert. `scope` is the watch id
 * for wallet alerts and the account id for protocol alerts; `episodeKey` names the occurrence
 * (position id, episode number, market status change).
 */
export function eventIdFor(scope: string, kind: AlertKind, episodeKey: string): string {
  return `evt_${sha256(`${scope}|${kind}|${episodeKey}`).slice(0, 48)}`;
}

/** A name-based UUID (version 5 layout over SHA-256): deterministic ids for rows created from an event id. */
export function uuidFrom(name: string): string {
  const hex = sha256(name).slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const alertIdFor = (accountId: string, eventId: string): string => uuidFrom(`alert|${accountId}|${eventId}`);

/** The delivery of an alert to a channel (the same alert and channel always give the same id). */
export const deliveryIdFor = (eventId: string, channelId: string): string =>
  uuidFrom(`delivery|${eventId}|${channelId}`);
