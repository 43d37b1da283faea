// The events service without a database: tickets that expire and cannot be changed, and a buffer that, once
// an event has left it, tells a resuming client to resync instead of replaying a gap.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Caller } from '@/lib/caller.js';
import { createChangeFeed, type Change } from '@/lib/changes.js';
import { createSecretBox } from '@/lib/secret-box.js';
import type { Store } from '@/lib/store.js';
import type { CommandCenterScopeService } from '@/modules/command-centers/command-center-scope.service.js';
import { TICKET_TTL_MS, createEventsService } from './events.service.js';

const admin: Caller = {
  subject: 'admin-subject',
  roles: ['admin'],
  claims: { exp: 2_000_000_000 },
  userId: '0190a0b0-0000-7000-8000-000000000001',
  localRoles: ['application_admin'],
  isAdmin: true,
};
// Every caller of these tests is an admin: no command-center lookups are needed.
const scope = { supervisedCenters: async () => 'all' } as unknown as CommandCenterScopeService;

function setUp(bufferSize = 10) {
  const clock = { now: 1_800_000_000_000 };
  const changes = createChangeFeed();
  const store = { changes, db: undefined } as unknown as Store;
  // Sign-ins as the database would tell them: ended grants, and the admin's record.
  const ended = new Set<string>();
  const record = { id: admin.userId!, roles: admin.roles, localRoles: admin.localRoles, isBlocked: false };
  const service = createEventsService(store, {
    secrets: createSecretBox(randomBytes(32)),
    scope,
    signIns: {
      isGrantActive: async (grantId) => !ended.has(grantId),
      findUser: async (subject) => (subject === admin.subject ? record : undefined),
    },
    bufferSize,
    now: () => clock.now,
  });
  const change = (recordId: string): Change => ({
    resource: 'devices',
    action: 'update',
    recordId,
    actorUserId: null,
    at: clock.now,
  });
  let seq = 0;
  const hear = (...recordIds: string[]) =>
    changes.receive({ origin: 'origin', seq: ++seq, changes: recordIds.map(change) });
  return { clock, service, hear, changes, ended, record };
}

const viewer = {
  subject: 'ada',
  ticket: 't',
  userId: null,
  grantId: null,
  isAdmin: true,
  centers: 'all' as const,
  until: Infinity,
};

/** The frames a stream is written, once its queue has drained (the `ready` frame is the last of a connect). */
async function collect(service: ReturnType<typeof setUp>['service'], lastEventId?: string) {
  const frames: string[] = [];
  const ready = new Promise<void>((resolve) => {
    service.connect(viewer, lastEventId, {
      write: (frame) => {
        frames.push(frame);
        if (frame.startsWith('event: ready')) resolve();
      },
      end: () => {},
    });
  });
  await ready;
  return frames;
}

describe('event tickets', () => {
  it('open a stream until they expire', async () => {
    const { clock, service } = setUp();
    const { ticket, expiresAt } = await service.issueTicket(admin);
    expect(expiresAt).toBe(clock.now + TICKET_TTL_MS);
    await expect(service.openTicket(ticket)).resolves.toMatchObject({ isAdmin: true, centers: 'all' });
    clock.now = expiresAt;
    await expect(service.openTicket(ticket)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('are refused when changed, cut or signed by another key', async () => {
    const { service } = setUp();
    const other = setUp().service;
    const { ticket } = await service.issueTicket(admin);
    const [body, signature] = ticket.split('.') as [string, string];
    const changed = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), u: 'someone else' }),
    ).toString('base64url');
    for (const bad of [
      `${changed}.${signature}`,
      body,
      `${ticket}.x`,
      '',
      (await other.issueTicket(admin)).ticket,
    ]) {
      await expect(service.openTicket(bad), bad).rejects.toMatchObject({ statusCode: 401 });
    }
  });
});

describe('a stream and its sign-in', () => {
  const signedIn: Caller = { ...admin, claims: { ...admin.claims, grant_id: 'grant-1' } };

  it('opens no stream once the sign-in its ticket was issued under ended, or its account is blocked', async () => {
    const { service, ended, record } = setUp();
    const { ticket } = await service.issueTicket(signedIn);
    await expect(service.openTicket(ticket)).resolves.toMatchObject({ grantId: 'grant-1' });
    record.isBlocked = true;
    await expect(service.openTicket(ticket)).rejects.toMatchObject({
      statusCode: 401,
      message: 'This account is blocked',
    });
    record.isBlocked = false;
    ended.add('grant-1');
    await expect(service.openTicket(ticket)).rejects.toMatchObject({
      statusCode: 401,
      message: 'This sign-in has ended',
    });
  });

  /** A stream of the signed-in admin; `ended` resolves when the service ends it. */
  async function open(service: ReturnType<typeof setUp>['service']) {
    const opened = await service.openTicket((await service.issueTicket(signedIn)).ticket);
    const frames: string[] = [];
    let ended = false;
    const endedOnce = new Promise<void>((resolve) => {
      service.connect(opened, undefined, {
        write: (frame) => frames.push(frame),
        end: () => {
          ended = true;
          resolve();
        },
      });
    });
    return { frames, endedOnce, isEnded: () => ended };
  }

  it('ends when its sign-in ends, and keeps others open', async () => {
    const { service, changes } = setUp();
    const stream = await open(service);
    changes.receive({
      origin: 'origin',
      seq: 1,
      changes: [{ resource: 'auth-grants', action: 'revoke', recordId: 'grant-2', actorUserId: null, at: 1 }],
    });
    expect(stream.isEnded()).toBe(false);
    changes.receive({
      origin: 'origin',
      seq: 2,
      changes: [{ resource: 'auth-grants', action: 'revoke', recordId: 'grant-1', actorUserId: null, at: 2 }],
    });
    await stream.endedOnce;
    expect(service.streamCount()).toBe(0);
  });

  it("ends when the watcher's own record is blocked, not when another user's changes", async () => {
    const { service, changes, record } = setUp();
    const stream = await open(service);
    const userChange = (recordId: string, seq: number) =>
      changes.receive({
        origin: 'origin',
        seq,
        changes: [{ resource: 'users', action: 'update', recordId, actorUserId: null, at: seq }],
      });
    record.isBlocked = true;
    userChange('0190a0b0-0000-7000-8000-000000000002', 1);
    userChange('0190a0b0-0000-7000-8000-000000000003', 2);
    // The stream's queue has told both changes: it stands, since neither was its own record.
    await vi.waitFor(() =>
      expect(stream.frames.filter((frame) => frame.includes('event: change'))).toHaveLength(2),
    );
    expect(stream.isEnded()).toBe(false);
    userChange(admin.userId!, 3);
    await stream.endedOnce;
    expect(service.streamCount()).toBe(0);
  });
});

describe('the event buffer', () => {
  it('replays after a known id and asks to resync after one it no longer holds', async () => {
    const { service, hear } = setUp(3);
    hear('a', 'b');
    hear('c');
    // Ids name the origin, its message and the change's place in it.
    const replayed = await collect(service, 'origin.1.0');
    expect(replayed.filter((frame) => frame.includes('event: change'))).toEqual([
      expect.stringContaining('id: origin.1.1\n'),
      expect.stringContaining('id: origin.2.0\n'),
    ]);
    hear('d');
    // The buffer holds three: origin.1.0 has left it.
    const resumed = await collect(service, 'origin.1.0');
    expect(resumed.map((frame) => frame.split('\n')[0])).toEqual(['event: resync', 'event: ready']);
    expect(resumed.at(-1)).toContain('"lastEventId":"origin.3.0"');
  });

  it('tells every stream to resync when the database channel was lost, and forgets what it held', async () => {
    const { service, hear, changes } = setUp();
    hear('a');
    const frames: string[] = [];
    const resynced = new Promise<void>((resolve) => {
      service.connect(viewer, undefined, {
        write: (frame) => {
          frames.push(frame);
          if (frame.startsWith('event: resync')) resolve();
        },
        end: () => {},
      });
    });
    changes.lost();
    await resynced;
    expect(frames.map((frame) => frame.split('\n')[0])).toEqual(['event: ready', 'event: resync']);
    // Nothing to resume from any more.
    const resumed = await collect(service, 'origin.1.0');
    expect(resumed[0]).toMatch(/^event: resync/);
  });
});
