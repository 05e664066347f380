import fs from 'node:fs';

/** TCP states in /proc/net/tcp (hex): ESTABLISHED and LISTEN. */
const STATES = { established: '01', listen: '0A' } as const;

interface SocketRow {
  localAddress: string;
  localPort: number;
  state: string;
}

/** The decoded IPv4 address of /proc/net/tcp's little-endian hex form (IPv6 rows are kept as hex). */
function address(hex: string): string {
  if (hex.length !== 8) return hex;
  return [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
}

/** This machine's TCP sockets (Linux: /proc/net/tcp and tcp6; every process's, not only this one's). */
function sockets(): SocketRow[] {
  const rows: SocketRow[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local = '', , state = ''] = line.trim().split(/\s+/);
      const [hexAddress = '', hexPort = '0'] = local.split(':');
      rows.push({ localAddress: address(hexAddress), localPort: parseInt(hexPort, 16), state });
    }
  }
  return rows;
}

/** Established connections a server listening on `port` holds (its accepted sockets). */
export function establishedOn(port: number): number {
  return sockets().filter((s) => s.localPort === port && s.state === STATES.established).length;
}

/** The addresses a server listens on at `port`. */
export function listeningAddresses(port: number): string[] {
  return sockets()
    .filter((s) => s.localPort === port && s.state === STATES.listen)
    .map((s) => s.localAddress);
}
