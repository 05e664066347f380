import { type DeliveryOutcome, networkReason, parseRetryAfter, snippet } from '@paper/webhook-delivery';
import { type DiscordWebhookRef, parseDiscordWebhookUrl } from './discord-webhook-url';

export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
}

export interface DiscordMessage {
  content?: string;
  embeds?: DiscordEmbed[];
}

/** Discord's documented message limits. */
export const DISCORD_LIMITS = Object.freeze({
  content: 2000,
  embeds: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
});

function cut(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function embedLength(embed: DiscordEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0)
  );
}

/** Trims a message to Discord's limits (content 2000, 10 embeds, 6000 characters across embeds). */
export function fitDiscordLimits(message: DiscordMessage): DiscordMessage {
  const embeds = (message.embeds ?? []).slice(0, DISCORD_LIMITS.embeds).map((embed) => ({
    ...embed,
    title: cut(embed.title, DISCORD_LIMITS.title),
    description: cut(embed.description, DISCORD_LIMITS.description),
    footer: embed.footer ? { text: cut(embed.footer.text, DISCORD_LIMITS.footer)! } : undefined,
    fields: embed.fields?.slice(0, DISCORD_LIMITS.fields).map((f) => ({
      ...f,
      name: cut(f.name, DISCORD_LIMITS.fieldName)!,
      value: cut(f.value, DISCORD_LIMITS.fieldValue)!,
    })),
  }));
  let total = embeds.reduce((sum, e) => sum + embedLength(e), 0);
  while (total > DISCORD_LIMITS.embedTotal && embeds.length > 0) {
    const last = embeds[embeds.length - 1]!;
    const excess = total - DISCORD_LIMITS.embedTotal;
    const description = last.description ?? '';
    if (description.length > excess + 1) {
      last.description = `${description.slice(0, description.length - excess - 1)}…`;
    } else {
      embeds.pop();
    }
    total = embeds.reduce((sum, e) => sum + embedLength(e), 0);
  }
  return { content: cut(message.content, DISCORD_LIMITS.content), embeds };
}

export interface DiscordSenderOptions {
  /** Base of the Discord API (`https://discord.com/api`); configurable so tests can use a local receiver. */
  apiBase: string;
  timeoutMs?: number;
}

/** Posts one message to a Discord webhook (`?wait=true`, no mentions) and maps the answer to an outcome. */
export async function sendDiscord(
  webhookUrl: string,
  message: DiscordMessage,
  options: DiscordSenderOptions,
): Promise<DeliveryOutcome> {
  const ref: DiscordWebhookRef | undefined = parseDiscordWebhookUrl(webhookUrl);
  if (!ref) return { kind: 'disable', reason: 'the channel target is not a Discord webhook URL' };
  const url = `${options.apiBase.replace(/\/+$/, '')}/webhooks/${ref.id}/${ref.token}?wait=true`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...fitDiscordLimits(message), allowed_mentions: { parse: [] } }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    text = await response.text();
  } catch (error) {
    return { kind: 'retry', reason: networkReason(error) };
  }
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 429) {
    const retryAfterSeconds = readJson<{ retry_after?: number }>(text)?.retry_after;
    const retryAfterMs =
      typeof retryAfterSeconds === 'number'
        ? Math.ceil(retryAfterSeconds * 1000)
        : parseRetryAfter(response.headers.get('retry-after'));
    return { kind: 'retry', status, reason: 'Discord rate limit', retryAfterMs };
  }
  if (status === 401 || status === 404)
    return { kind: 'disable', status, reason: `Discord answered ${status}: the webhook no longer exists` };
  if (status === 408 || status >= 500) return { kind: 'retry', status, reason: `Discord answered ${status}` };
  return { kind: 'failed', status, reason: `Discord answered ${status}: ${snippet(text)}` };
}

function readJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
