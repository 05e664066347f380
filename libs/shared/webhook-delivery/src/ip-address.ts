import net from 'node:net';

/**
 * Address classification for user-supplied delivery targets. Anything that is not a public unicast
 * address is refused: loopback, private, link-local, CGNAT, multicast, documentation, reserved, and the
 * IPv6 forms that embed such an IPv4 address (mapped, compatible, 6to4, NAT64).
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'shared_cgnat'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'invalid';

interface V4Range {
  base: number;
  bits: number;
  kind: Exclude<AddressClass, 'public' | 'invalid'>;
}

const V4_RANGES: readonly V4Range[] = [
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared_cgnat'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link_local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

function v4(address: string, bits: number, kind: V4Range['kind']): V4Range {
  return { base: ipv4ToInt(address)!, bits, kind };
}

/** Dotted-quad IPv4 to an unsigned 32-bit integer; undefined when not canonical dotted-quad. */
function ipv4ToInt(address: string): number | undefined {
  if (!net.isIPv4(address)) return undefined;
  return address.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function intToIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/**
 * Reads an IPv4 host the way URL parsers and `inet_aton` do: 1 to 4 parts, each decimal, `0x` hex or
 * leading-zero octal (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1` are all 127.0.0.1). Returns the
 * canonical dotted quad, or undefined when the string is not an IPv4 number.
 */
export function normalizeIpv4(host: string): string | undefined {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return undefined;
    if (!Number.isSafeInteger(value)) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (4 - numbers.length)) return undefined;
  const value = numbers.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
  return intToIpv4(value);
}

/** Expands an IPv6 address (with optional embedded IPv4 tail) to eight 16-bit groups. */
export function ipv6Groups(address: string): number[] | undefined {
  const zoneless = address.replace(/%.*$/, '');
  if (!net.isIPv6(zoneless)) return undefined;
  let text = zoneless.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4ToInt(dotted[1]!);
    if (value === undefined) return undefined;
    text = `${text.slice(0, -dotted[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  return groups.map((g) => parseInt(g, 16));
}

function classifyIpv4(address: string): AddressClass {
  const value = ipv4ToInt(address);
  if (value === undefined) return 'invalid';
  if (value === 0xffffffff) return 'reserved';
  for (const range of V4_RANGES) {
    const mask = range.bits === 0 ? 0 : (~0 << (32 - range.bits)) >>> 0;
    if ((value & mask) >>> 0 === (range.base & mask) >>> 0) return range.kind;
  }
  return 'public';
}

function embeddedIpv4(high: number, low: number): string {
  return intToIpv4(((high << 16) >>> 0) + low);
}

function classifyIpv6(groups: number[]): AddressClass {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (zeroPrefix && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): judged by the IPv4 address inside.
  if (zeroPrefix && (g5 === 0xffff || g5 === 0)) return worst(classifyIpv4(embeddedIpv4(g6, g7)), 'reserved');
  // 64:ff9b::/96 NAT64 and 2002::/16 6to4 embed an IPv4 address too.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return classifyIpv4(embeddedIpv4(g6, g7));
  if (g0 === 0x2002) return classifyIpv4(embeddedIpv4(g1, g2));
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link_local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation';
  if (g0 === 0x2001 && g1 < 0x0200) return 'reserved';
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

/** IPv4-mapped/compatible forms are never public, even when the IPv4 inside is. */
function worst(inner: AddressClass, fallback: AddressClass): AddressClass {
  return inner === 'public' ? fallback : inner;
}

/**
 * Classifies an IP literal: IPv4 in any numeric form, or IPv6 (brackets and zone ids allowed).
 * Strings that are not IP addresses are 'invalid'.
 */
export function classifyAddress(input: string): AddressClass {
  const host = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  if (host.includes(':')) {
    const groups = ipv6Groups(host);
    return groups ? classifyIpv6(groups) : 'invalid';
  }
  const normalized = normalizeIpv4(host);
  return normalized ? classifyIpv4(normalized) : 'invalid';
}

/** True when the string is an IP literal in any form the classifier understands. */
export function isIpLiteral(input: string): boolean {
  return classifyAddress(input) !== 'invalid';
}
