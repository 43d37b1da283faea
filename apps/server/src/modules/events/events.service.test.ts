// The events service without a database: tickets that expire and cannot be changed, and a buffer that, once
// an event has left it, tells a resuming client to resync instead of replaying a gap.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
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
  const service = createEventsService(store, {
    secrets: createSecretBox(randomBytes(32)),
    scope,
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
  return { clock, service, hear, changes };
}

/** The frames a stream is written, once its queue has drained (the `ready` frame is the last of a connect). */
async function collect(service: ReturnType<typeof setUp>['service'], lastEventId?: string) {
  const frames: string[] = [];
  const ready = new Promise<void>((resolve) => {
    service.connect(
      { subject: 'ada', ticket: 't', userId: null, isAdmin: true, centers: 'all', until: Infinity },
      lastEventId,
      (frame) => {
        frames.push(frame);
        if (frame.startsWith('event: ready')) resolve();
      },
    );
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
      service.connect(
        { subject: 'ada', ticket: 't', userId: null, isAdmin: true, centers: 'all', until: Infinity },
        undefined,
        (frame) => {
          frames.push(frame);
          if (frame.startsWith('event: resync')) resolve();
        },
      );
    });
    changes.lost();
    await resynced;
    expect(frames.map((frame) => frame.split('\n')[0])).toEqual(['event: ready', 'event: resync']);
    // Nothing to resume from any more.
    const resumed = await collect(service, 'origin.1.0');
    expect(resumed[0]).toMatch(/^event: resync/);
  });
});
