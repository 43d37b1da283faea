// Live events (decision 027): the changes every server process hears on the database channel, in commit order,
// told to the console's streams as server-sent events after their transaction committed. Each process keeps
// a bounded buffer of recent events named by ids every process shares (origin, message and position), so a
// client that reconnects, to this process or another, resumes after its last event; a supervisor's stream
// carries only the changes of their own command centers. Streams are opened with short-lived signed tickets,
// since an EventSource cannot send a bearer token. What a stream may carry is read from the watcher's user
// record and their centers when it opens, and again whenever either may have changed (decision 110): an open
// stream never keeps rights its watcher has lost.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  liveEventNames,
  liveResources,
  type EventTicket,
  type LiveChange,
  type LiveResource,
} from '@careplane/shared/events/events.contract';
import { callerIsAdmin, type Caller } from '@/lib/caller.js';
import { GRANT_RESOURCE } from '@/auth-server/grants.js';
import type { Change, RelayedChanges } from '@/lib/changes.js';
import { serviceTexts, tooManyRequests, unauthorized } from '@/lib/errors.js';
import type { SecretBox } from '@/lib/secret-box.js';
import { confirmSignIn, type FindCallerRecord, type SignInChecks } from '@/lib/sign-in.js';
import type { Store } from '@/lib/store.js';
import type {
  CenterSet,
  CommandCenterScopeService,
} from '@/modules/command-centers/command-center-scope.service.js';
import { findCentersOfRecord } from './events.repository.js';

/** How long a ticket opens a stream. */
export const TICKET_TTL_MS = 60_000;
/** Events kept for clients that reconnect. */
export const EVENT_BUFFER_SIZE = 2_000;
/** A comment line on every stream this often, so proxies and the client see it alive. */
const KEEP_ALIVE_MS = 20_000;
/** A stream lives at most this long when the token it was opened with carried no expiry. */
const STREAM_MAX_MS = 60 * 60_000;

/** Who watches a stream: what they may read, and until when. */
export interface Viewer {
  /** The sign-in subject and the ticket the stream was opened with: what the stream caps count by. */
  subject: string;
  ticket: string;
  userId: string | null;
  /** The sign-in the stream belongs to: when it ends (logout, a reused refresh token, a block), so does the stream. */
  grantId: string | null;
  /** The watcher's rights as their record had them when last read (at the open, then at each recheck). */
  isAdmin: boolean;
  /** Admins: every center; a supervisor: their centers as last read. */
  centers: CenterSet;
  /** Milliseconds since the epoch: the stream ends then (the access token's expiry), and the client asks anew. */
  until: number;
}

interface TicketBody {
  /**
   * The caller's subject. Their rights are not carried: they are read from their record when the stream opens,
   * since they may have changed in the ticket's minute.
   */
  s: string;
  /** The access token's sign-in (`grant_id`), when it names one. */
  g: string | null;
  /** The ticket's expiry and the access token's (milliseconds). */
  exp: number;
  until: number;
}

interface LiveEvent {
  id: string;
  change: LiveChange;
  /** The command centers of the changed record, resolved once when a supervisor's stream first asks. */
  centers?: Promise<string[] | null>;
}

/** Where a stream's frames go, and how the service ends it. */
export interface StreamSink {
  write: (frame: string) => void;
  end: () => void;
}

interface Client extends StreamSink {
  viewer: Viewer;
  /** Frames leave in the order of the events, though deciding who may read one may take a query. */
  queue: Promise<void>;
}

const isLiveResource = (resource: string): resource is LiveResource =>
  (liveResources as readonly string[]).includes(resource);

const changeFrame = (event: LiveEvent) =>
  `id: ${event.id}\nevent: ${liveEventNames.change}\ndata: ${JSON.stringify(event.change)}\n\n`;
const resyncFrame = `event: ${liveEventNames.resync}\ndata: {}\n\n`;

export interface EventsServiceOptions {
  secrets: SecretBox;
  scope: CommandCenterScopeService;
  /**
   * Whether the sign-in a ticket was issued under still stands, as the API's bearer check asks it, and the
   * watcher's record as it is now (uncached: the rights a stream carries are read from it).
   */
  signIns: SignInChecks & { findUser: FindCallerRecord };
  onError?: (error: unknown) => void;
  bufferSize?: number;
  now?: () => number;
  /** Streams open at once in this process per user and per ticket; one more is a 429. */
  limits?: { perUser: number; perTicket: number };
}

/** A stream refused by a cap is tried again by the browser after this many seconds (its retry is 2 s). */
const CAPPED_RETRY_AFTER_SECONDS = 30;

export function createEventsService(store: Store, options: EventsServiceOptions) {
  const { scope } = options;
  const onError = options.onError ?? (() => {});
  const bufferSize = options.bufferSize ?? EVENT_BUFFER_SIZE;
  const now = options.now ?? Date.now;
  const ticketKey = options.secrets.derive('careplane live events ticket');
  const buffer: LiveEvent[] = [];
  const clients = new Set<Client>();

  // ------------------------------------------------------------------------------------------------------
  // Tickets: signed by a key every process derives from the same encryption key, so a ticket from one process
  // opens a stream at any other.

  const sign = (body: string) => createHmac('sha256', ticketKey).update(body).digest('base64url');

  /** A ticket for the caller; only admins and supervisors of a command center watch live events (403). */
  async function issueTicket(caller: Caller): Promise<EventTicket> {
    await scope.supervisedCenters(caller);
    const issued = now();
    const tokenExpiry = typeof caller.claims.exp === 'number' ? caller.claims.exp * 1000 : Infinity;
    const body: TicketBody = {
      s: caller.subject,
      g: typeof caller.claims.grant_id === 'string' ? caller.claims.grant_id : null,
      exp: issued + TICKET_TTL_MS,
      until: Math.min(tokenExpiry, issued + STREAM_MAX_MS),
    };
    const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
    return { ticket: `${encoded}.${sign(encoded)}`, expiresAt: body.exp };
  }

  /** The viewer a ticket names; a forged, changed or expired ticket is a 401. */
  async function openTicket(ticket: string): Promise<Viewer> {
    const [encoded, signature, extra] = ticket.split('.');
    const expected = encoded ? Buffer.from(sign(encoded)) : undefined;
    const given = Buffer.from(signature ?? '');
    if (
      extra !== undefined ||
      !expected ||
      expected.length !== given.length ||
      !timingSafeEqual(expected, given)
    ) {
      throw unauthorized(serviceTexts.invalidEventTicket);
    }
    const body = JSON.parse(Buffer.from(encoded!, 'base64url').toString('utf8')) as TicketBody;
    if (body.exp <= now()) throw unauthorized(serviceTexts.eventTicketExpired);
    // A ticket outlives nothing: a sign-in ended, an account blocked or rights taken since it was issued.
    const rights = await rightsNow(body.s, body.g ?? null);
    return { subject: body.s, ticket: signature!, grantId: body.g ?? null, ...rights, until: body.until };
  }

  /**
   * What the subject may watch now: their sign-in must stand (401 otherwise), and their record decides, as
   * for the API's calls, whether they are an admin (every center) or a supervisor of which centers; one who
   * supervises none is refused (403).
   */
  async function rightsNow(
    subject: string,
    grantId: string | null,
  ): Promise<Pick<Viewer, 'userId' | 'isAdmin' | 'centers'>> {
    const record = await confirmSignIn(options.signIns, subject, grantId);
    const roles = record?.roles ?? [];
    const localRoles = record?.localRoles ?? [];
    const caller: Caller = {
      subject,
      userId: record?.id ?? null,
      roles,
      localRoles,
      isAdmin: callerIsAdmin(roles, localRoles),
      claims: {},
    };
    const centers = await scope.supervisedCenters(caller);
    return { userId: caller.userId, isAdmin: caller.isAdmin, centers };
  }

  // ------------------------------------------------------------------------------------------------------
  // The hub: events in the database's order, the buffer, and each stream's share of them.

  async function visible(viewer: Viewer, event: LiveEvent): Promise<boolean> {
    if (viewer.centers === 'all') return true;
    const { resource, recordId } = event.change;
    if (recordId === null) return false;
    event.centers ??= findCentersOfRecord(store.db, resource, recordId);
    const centers = await event.centers;
    const own = viewer.centers;
    return centers !== null && centers.some((center) => own.includes(center));
  }

  function deliver(client: Client, event: LiveEvent) {
    client.queue = client.queue
      .then(async () => {
        // A stream ended in its turn (its sign-in or its rights gone) is told nothing queued after.
        if (!clients.has(client)) return;
        if ((await visible(client.viewer, event)) && clients.has(client)) client.write(changeFrame(event));
      })
      .catch(onError);
  }

  function resync(client: Client) {
    client.queue = client.queue.then(() => client.write(resyncFrame)).catch(onError);
  }

  function endStream(client: Client) {
    clients.delete(client);
    client.end();
  }

  /**
   * Reads the stream's rights again, in its turn (the events before it are told under the rights they came
   * under, those after under the new ones): a supervisor taken off a center stops hearing of it, an admin
   * demoted to a supervisor hears only their centers, and a stream left with nothing to watch ends, as one
   * whose sign-in has ended or whose account is blocked does.
   */
  function recheck(client: Client) {
    const { subject, grantId } = client.viewer;
    client.queue = client.queue
      .then(() => (clients.has(client) ? rightsNow(subject, grantId) : undefined))
      .then(
        (rights) => {
          if (rights) client.viewer = { ...client.viewer, ...rights };
        },
        (error: unknown) => {
          const status = (error as { statusCode?: number }).statusCode;
          if (status === 401 || status === 403) endStream(client);
          else onError(error);
        },
      );
  }

  /**
   * A sign-in that ended ends its streams at once. A change of a watcher's own record (their roles, their
   * centers, a block) has their streams checked; a change of a command center (its staff) has every
   * supervisor's stream checked, since the change does not say whom it added or removed.
   */
  function heedSignIns(change: Change) {
    if (change.resource === GRANT_RESOURCE && change.action === 'revoke') {
      for (const client of clients) if (client.viewer.grantId === change.recordId) endStream(client);
    } else if (change.resource === 'users' || change.resource === '*') {
      for (const client of clients) {
        if (change.recordId === null || change.recordId === client.viewer.userId) recheck(client);
      }
    } else if (change.resource === 'command-centers') {
      for (const client of clients) if (client.viewer.centers !== 'all') recheck(client);
    }
  }

  /** Hears every message on the database channel (null: some may have been missed). */
  function receive(message: RelayedChanges | null) {
    if (message === null) {
      // Events went by unheard: no client can resume exactly, here or from this buffer; nor can a stream know
      // whether its sign-in ended meanwhile.
      buffer.length = 0;
      for (const client of clients) {
        resync(client);
        recheck(client);
      }
      return;
    }
    message.changes.forEach(heedSignIns);
    message.changes.forEach((change: Change, index) => {
      if (!isLiveResource(change.resource)) return;
      const event: LiveEvent = {
        id: `${message.origin}.${message.seq}.${index}`,
        change: {
          resource: change.resource,
          action: change.action,
          recordId: change.recordId,
          at: change.at,
        },
      };
      buffer.push(event);
      if (buffer.length > bufferSize) buffer.shift();
      for (const client of clients) deliver(client, event);
    });
  }

  const openStreams = (key: keyof Pick<Viewer, 'subject' | 'ticket'>, value: string) =>
    [...clients].filter((client) => client.viewer[key] === value).length;

  /**
   * Whether one more stream may open for the viewer: at most `perUser` at once for one person (one ticket
   * cannot open hundreds) and `perTicket` for one ticket. Beyond, a 429 (the browser waits and asks anew).
   */
  function admit(viewer: Viewer) {
    const limits = options.limits;
    if (!limits) return;
    if (openStreams('ticket', viewer.ticket) >= limits.perTicket) {
      throw tooManyRequests(serviceTexts.streamsPerTicket(limits.perTicket), CAPPED_RETRY_AFTER_SECONDS);
    }
    if (openStreams('subject', viewer.subject) >= limits.perUser) {
      throw tooManyRequests(serviceTexts.streamsPerUser(limits.perUser), CAPPED_RETRY_AFTER_SECONDS);
    }
  }

  /**
   * Adds a stream: replays what came after `lastEventId` when this process still holds it (otherwise tells
   * the client to resync), then says `ready` and tells each new event. Answers the function that removes it.
   */
  function connect(viewer: Viewer, lastEventId: string | undefined, sink: StreamSink) {
    const { write } = sink;
    const client: Client = { viewer, ...sink, queue: Promise.resolve() };
    // One synchronous step: no event can fall between the replay and the live ones.
    if (lastEventId) {
      const index = buffer.findIndex((event) => event.id === lastEventId);
      if (index === -1) resync(client);
      else for (const event of buffer.slice(index + 1)) deliver(client, event);
    }
    const last = buffer.at(-1)?.id ?? null;
    client.queue = client.queue
      .then(() => write(`event: ${liveEventNames.ready}\ndata: ${JSON.stringify({ lastEventId: last })}\n\n`))
      .catch(onError);
    clients.add(client);
    return () => {
      clients.delete(client);
    };
  }

  const keepAlive = setInterval(() => {
    for (const client of clients) {
      client.queue = client.queue.then(() => client.write(': keep-alive\n\n')).catch(onError);
    }
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  const unsubscribe = store.changes.subscribeRelayed(receive);

  return {
    issueTicket,
    openTicket,
    admit,
    connect,
    /** Streams open in this process. */
    streamCount: () => clients.size,
    close: () => {
      clearInterval(keepAlive);
      unsubscribe();
      clients.clear();
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
