import { Injectable } from '@nestjs/common';
import { liveGrantIds } from '@paper/oauth-data';
import { OauthDatabase } from './oauth-database';

/** How long a grant read as live is trusted without reading it again: the bound on a revocation reaching a /me call. */
export const GRANT_LIVE_CACHE_MS = 1000;
/** Grants remembered at most (live or gone); the memo is cleared past it. */
const MAX_REMEMBERED = 50_000;

/**
 * Whether the connection (OAuth grant) an access token was issued for still exists. Revoking a connection
 * (on /connections, at /revoke, or by a reused refresh token) deletes its grant, so every /me call and
 * every event stream learns of it: a grant read as live is trusted for GRANT_LIVE_CACHE_MS, a grant read
 * as gone stays gone (grants are never restored). Concurrent checks of one grant share one read.
 */
@Injectable()
export class ConnectionLiveness {
  private readonly liveUntil = new Map<string, number>();
  private readonly gone = new Set<string>();
  private readonly reading = new Map<string, Promise<boolean>>();

  constructor(private readonly oauth: OauthDatabase) {}

  /** Whether the grant is live (briefly cached). */
  async isLive(grantId: string, now = Date.now()): Promise<boolean> {
    if (this.gone.has(grantId)) return false;
    if ((this.liveUntil.get(grantId) ?? 0) > now) return true;
    let read = this.reading.get(grantId);
    if (!read) {
      read = this.liveOf([grantId]).then((live) => live.has(grantId));
      this.reading.set(grantId, read);
      void read.finally(() => this.reading.delete(grantId)).catch(() => undefined);
    }
    return read;
  }

  /** Which of these grants are live, read now (one statement); remembers the answers. */
  async liveOf(grantIds: readonly string[]): Promise<Set<string>> {
    const live = await liveGrantIds(await this.oauth.get(), grantIds);
    if (this.liveUntil.size + this.gone.size > MAX_REMEMBERED) {
      this.liveUntil.clear();
      this.gone.clear();
    }
    const until = Date.now() + GRANT_LIVE_CACHE_MS;
    for (const id of grantIds) {
      if (live.has(id)) this.liveUntil.set(id, until);
      else {
        this.liveUntil.delete(id);
        this.gone.add(id);
      }
    }
    return live;
  }
}
