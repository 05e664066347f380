import { lookup as dnsLookup } from 'node:dns/promises';
import { type AddressClass, classifyAddress, normalizeIpv4 } from './ip-address';

/** Why a user-supplied URL may not be used as a delivery target. */
export class TargetNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetNotAllowedError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

export interface TargetGuardOptions {
  /** host or host:port entries that may be private (development and test receivers). */
  allowHosts?: readonly string[];
  /** DNS resolver; the system resolver by default. */
  lookup?: LookupAll;
}

/** A URL that passed the guard, with the one address the connection must use (pinned). */
export interface CheckedTarget {
  url: URL;
  hostname: string;
  address: string;
  family: 4 | 6;
  allowListed: boolean;
}

const systemLookup: LookupAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((r) => ({
    address: r.address,
    family: r.family === 6 ? 6 : 4,
  }));

/** Parses `ALERTS_ALLOW_HOSTS` (comma-separated host or host:port, case-insensitive). */
export function parseAllowHosts(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

const DESCRIPTIONS: Record<Exclude<AddressClass, 'public'>, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private network address',
  link_local: 'a link-local address',
  shared_cgnat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  documentation: 'a documentation address',
  invalid: 'not a valid address',
};

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function isAllowListed(url: URL, allowHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowHosts.includes(host) || allowHosts.includes(`${host}:${port}`);
}

function refuseUnlessPublic(address: string, hostname: string): void {
  const kind = classifyAddress(address);
  if (kind !== 'public') {
    const via = address === bareHost(hostname) ? '' : ` (${hostname} resolves to ${address})`;
    throw new TargetNotAllowedError(
      `The target host is ${DESCRIPTIONS[kind]}${via}; only public internet addresses can receive deliveries.`,
    );
  }
}

/**
 * Checks a user-supplied http(s) URL before every connection: scheme, no credentials, and every
 * address the host resolves to must be public (unless the host is on the allow-list). Returns the
 * address to connect to, so the check and the connection use the same IP (no DNS rebinding).
 */
export async function checkTarget(raw: string, options: TargetGuardOptions = {}): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetNotAllowedError('The target is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetNotAllowedError('The target URL must use http or https.');
  }
  if (url.username || url.password) {
    throw new TargetNotAllowedError('The target URL must not contain credentials.');
  }
  const hostname = bareHost(url.hostname);
  const allowListed = isAllowListed(url, options.allowHosts ?? []);
  const literal = hostname.includes(':') ? hostname : normalizeIpv4(hostname);
  if (literal) {
    if (!allowListed) refuseUnlessPublic(literal, url.hostname);
    return { url, hostname, address: literal, family: literal.includes(':') ? 6 : 4, allowListed };
  }
  const lower = hostname.toLowerCase();
  if (!allowListed && (lower === 'localhost' || lower.endsWith('.localhost') || !lower.includes('.'))) {
    throw new TargetNotAllowedError(
      'The target host is a local name; only public internet hosts can receive deliveries.',
    );
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.lookup ?? systemLookup)(hostname);
  } catch {
    throw new TargetNotAllowedError(`The target host ${hostname} does not resolve.`);
  }
  if (addresses.length === 0) throw new TargetNotAllowedError(`The target host ${hostname} does not resolve.`);
  if (!allowListed) for (const { address } of addresses) refuseUnlessPublic(address, hostname);
  const pinned = addresses[0]!;
  return { url, hostname, address: pinned.address, family: pinned.family, allowListed };
}
