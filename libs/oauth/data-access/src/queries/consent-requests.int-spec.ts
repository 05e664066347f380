import type { DataSource } from 'typeorm';
import { createOauthQueryDatabase, type OauthQueryDatabase } from '../testing/oauth-query-database';
import { claimConsentRequest } from './consent-requests';

describe('consent request claims (PostgreSQL)', () => {
  let database: OauthQueryDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createOauthQueryDatabase('oauth_consent_queries');
    db = database.dataSource;
    await db.query(
      `INSERT INTO oauth.consent_requests (uid, wallet, expires_at) VALUES ('proven', $1, now() + interval '1 hour'), ('anonymous', NULL, now() + interval '1 hour')`,
      [`0x${'1'.repeat(40)}`],
    );
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('lets one of two simultaneous submissions claim a proven request, and holds it', async () => {
    const claims = await Promise.all([claimConsentRequest(db, 'proven', 60), claimConsentRequest(db, 'proven', 60)]);
    expect(claims.sort()).toEqual([false, true]);
    await expect(claimConsentRequest(db, 'proven', 60)).resolves.toBe(false);
  });

  it('claims again once the hold lapsed or was released', async () => {
    await db.query(
      `UPDATE oauth.consent_requests SET approving_until = now() - interval '1 second' WHERE uid = 'proven'`,
    );
    await expect(claimConsentRequest(db, 'proven', 60)).resolves.toBe(true);
    await db.query(`UPDATE oauth.consent_requests SET approving_until = NULL WHERE uid = 'proven'`);
    await expect(claimConsentRequest(db, 'proven', 60)).resolves.toBe(true);
  });

  it('never claims a request without a proven wallet, or an unknown one', async () => {
    await expect(claimConsentRequest(db, 'anonymous', 60)).resolves.toBe(false);
    await expect(claimConsentRequest(db, 'missing', 60)).resolves.toBe(false);
  });
});
