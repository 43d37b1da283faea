// The platform keeps an active admin (decision 111): the last unblocked admin is not blocked, demoted or deleted,
// by themselves or anyone; while another admin remains, an admin may block or demote themselves.
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/db/schema/index.js';
import { createUser, type TestUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const LAST_ADMIN =
  'This is the last active admin: the platform needs one. Make another user an admin before blocking, ' +
  'demoting or deleting this one';
/** No admin area: neither a global nor a local admin role. */
const demoted = { roles: ['public'], localRoles: ['nurse'] };

async function storedUser(id: string) {
  return (await api(context).get(`/api/users/${id}`)).json<{ isBlocked: boolean; roles: string[] }>();
}

describe('the last active admin', () => {
  it('is not blocked, demoted or deleted, in English and Thai, and stays as they were', async () => {
    const self = `/api/users/${context.adminUserId}`;
    const admin = api(context);
    for (const refused of [
      admin.patch(self, { isBlocked: true }),
      admin.patch(self, demoted),
      admin.patch(self, { localRoles: ['nurse'], roles: ['public'], firstName: 'Still' }),
      admin.delete(self),
    ]) {
      const answer = await refused;
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().message).toBe(LAST_ADMIN);
    }
    const thai = await context.app.inject({
      method: 'PATCH',
      url: self,
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
      payload: { isBlocked: true },
    });
    expect(thai.statusCode, thai.body).toBe(409);
    expect(thai.json().message).toContain('ผู้ดูแลระบบคนสุดท้าย');
    expect(await storedUser(context.adminUserId)).toMatchObject({
      isBlocked: false,
      roles: ['admin'],
    });
    // What does not touch their rights is taken as before.
    const renamed = await admin.patch(self, { lastName: 'Kept' });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it('a blocked admin does not count: the one unblocked admin is still the last', async () => {
    const blocked = await createUser(context, { roles: ['admin'], localRoles: ['none'], isBlocked: true });
    const answer = await api(context).patch(`/api/users/${context.adminUserId}`, { isBlocked: true });
    expect(answer.statusCode, answer.body).toBe(409);
    // Blocking or demoting an admin already blocked leaves the count as it was.
    expect((await api(context).patch(`/api/users/${blocked.id}`, demoted)).statusCode).toBe(200);
    expect((await api(context).delete(`/api/users/${blocked.id}`)).statusCode).toBe(204);
  });

  it('while another admin remains, an admin may demote themselves, and another may block or delete one', async () => {
    const second: TestUser = await createUser(context, { roles: ['admin'], localRoles: ['none'] });
    const asSecond = api(context, second.token);
    const selfDemoted = await asSecond.patch(`/api/users/${second.id}`, demoted);
    expect(selfDemoted.statusCode, selfDemoted.body).toBe(200);
    // The first admin is the last again.
    expect((await api(context).patch(`/api/users/${context.adminUserId}`, demoted)).statusCode).toBe(409);

    const third = await createUser(context, { roles: ['master'], localRoles: ['none'] });
    expect((await api(context).patch(`/api/users/${third.id}`, { isBlocked: true })).statusCode).toBe(200);
    expect((await api(context).patch(`/api/users/${third.id}`, { isBlocked: false })).statusCode).toBe(200);
    expect((await api(context).delete(`/api/users/${third.id}`)).statusCode).toBe(204);
    expect(await storedUser(context.adminUserId)).toMatchObject({ isBlocked: false, roles: ['admin'] });
  });

  it('of two admins demoting each other at once, one is refused and an admin remains', async () => {
    const other = await createUser(context, { roles: ['admin'], localRoles: ['none'] });
    const answers = await Promise.all([
      api(context).patch(`/api/users/${other.id}`, demoted),
      api(context, other.token).patch(`/api/users/${context.adminUserId}`, demoted),
    ]);
    // One wins. The other is refused: 409 when both were let in as admins (on PostgreSQL, at once), 403 when the
    // first had committed before the second was let in (the embedded database runs one statement at a time).
    const [won, refused] = answers.map((answer) => answer.statusCode).sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(refused);
    // Whichever came second: the admin area's rule read on the rows (the one demoted may no longer read them).
    const rows = await context.database.db
      .select({ roles: users.roles })
      .from(users)
      .where(inArray(users.id, [context.adminUserId, other.id]));
    expect(rows.filter((row) => row.roles[0] === 'admin')).toHaveLength(1);
  });
});
