import type { AlertForDelivery } from '@paper/alerts-data';
import {
  buildWebhookEvent,
  type DiscordMessage,
  fitDiscordLimits,
  formatTelegramHtml,
  type WebhookEvent,
} from '@paper/alerts-delivery';
import { DISCLAIMER, describeAlert } from './alert-message';

/** Escapes Discord markdown so user text (labels) shows as typed. */
export function escapeDiscordMarkdown(text: string): string {
  return text.replace(/([\\*_~`|>[\]])/g, '\\$1');
}

/** A Discord webhook message: a one-line content and one embed, within Discord's limits. */
export function discordAlertMessage(alert: AlertForDelivery): DiscordMessage {
  const m = describeAlert(alert);
  const lines = m.lines.map(escapeDiscordMarkdown);
  return fitDiscordLimits({
    content: `${m.marker} ${escapeDiscordMarkdown(m.title)}`,
    embeds: [
      {
        title: escapeDiscordMarkdown(m.title),
        description: lines.join('\n'),
        color: m.color,
        timestamp: alert.occurredAt.toISOString(),
        footer: { text: `${alert.eventId} · ${DISCLAIMER}` },
      },
    ],
  });
}

/**
 * A Telegram HTML message: the kind's marker and a bold title, escaped lines, at most 4096 characters. The
 * disclaimer is not repeated in every alert: the chat got it once, in the bot's answer to /start or to the link.
 */
export function telegramAlertText(alert: AlertForDelivery): string {
  const m = describeAlert(alert);
  return formatTelegramHtml(`${m.marker} ${m.title}`, m.lines);
}

/** Body of a signed webhook delivery: identical on every attempt (only the signature header changes). */
export interface AlertWebhookEvent extends WebhookEvent<{
  alertId: string;
  title: string;
  watch: { id: string; label: string | null; role: string | null } | null;
}> {
  kind: string;
  wallet: string | null;
  details: Record<string, unknown>;
  occurredAt: string;
}

export function alertWebhookEvent(alert: AlertForDelivery): AlertWebhookEvent {
  const base = buildWebhookEvent(
    alert.eventId,
    `alert.${alert.kind}`,
    {
      alertId: alert.alertId,
      title: describeAlert(alert).title,
      watch: alert.watchId ? { id: alert.watchId, label: alert.watchLabel, role: alert.watchRole } : null,
    },
    alert.createdAt,
  );
  return {
    id: base.id,
    type: base.type,
    kind: alert.kind,
    wallet: alert.wallet,
    occurredAt: alert.occurredAt.toISOString(),
    details: alert.details,
    createdAt: base.createdAt,
    data: base.data,
  };
}
