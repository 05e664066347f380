const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']);
const PATH = /^\/api(?:\/v\d+)?\/webhooks\/(\d{5,25})\/([A-Za-z0-9_-]{20,128})\/?$/;

export interface DiscordWebhookRef {
  id: string;
  token: string;
}

/** Reads a Discord webhook URL (`https://discord.com/api/webhooks/{id}/{token}`); undefined when it is not one. */
export function parseDiscordWebhookUrl(raw: string): DiscordWebhookRef | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || !DISCORD_HOSTS.has(url.hostname) || url.port || url.username || url.password)
    return undefined;
  if (url.search || url.hash) return undefined;
  const match = PATH.exec(url.pathname);
  return match ? { id: match[1]!, token: match[2]! } : undefined;
}

/** The canonical form stored for a Discord channel. */
export function canonicalDiscordWebhookUrl(ref: DiscordWebhookRef): string {
  return `https://discord.com/api/webhooks/${ref.id}/${ref.token}`;
}

/** The webhook URL with its token hidden (the token is a secret). */
export function maskDiscordWebhookUrl(raw: string): string {
  const ref = parseDiscordWebhookUrl(raw);
  return ref ? `https://discord.com/api/webhooks/${ref.id}/****` : 'https://discord.com/api/webhooks/****';
}
