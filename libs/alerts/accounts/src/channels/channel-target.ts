import type { ChannelEntity } from '@paper/alerts-data';
import { canonicalDiscordWebhookUrl, maskDiscordWebhookUrl, parseDiscordWebhookUrl } from '@paper/alerts-delivery';
import type { ChannelView } from './channel.dto';

/** The Discord target in canonical form, or undefined when it is not a Discord webhook URL. */
export function normalizeDiscordTarget(raw: string): string | undefined {
  const ref = parseDiscordWebhookUrl(raw.trim());
  return ref ? canonicalDiscordWebhookUrl(ref) : undefined;
}

/** Targets are secrets (webhook paths carry tokens): only scheme and host of a URL are shown. */
export function maskTarget(kind: ChannelEntity['kind'], target: string): string {
  if (kind === 'discord') return maskDiscordWebhookUrl(target);
  if (kind === 'telegram') return `chat ****${target.slice(-4)}`;
  try {
    const url = new URL(target);
    return `${url.protocol}//${url.host}/****`;
  } catch {
    return '****';
  }
}

export function toChannelView(channel: ChannelEntity): ChannelView {
  return {
    id: channel.id,
    kind: channel.kind,
    target: maskTarget(channel.kind, channel.target),
    label: channel.label,
    status: channel.status,
    disabledReason: channel.disabledReason,
    createdAt: channel.createdAt.toISOString(),
  };
}
