// Live events (decision 027): the changes every server process hears on the database channel, in commit order,
// told to the console's streams as server-sent events after their transaction committed. Each process keeps
// a bounded buffer of recent events named by ids every process shares (origin, message and position), so a
// client that reconnects, to this process or another, resumes after its last event; a supervisor's stream
// carries only the changes of their own command centers. Streams are opened with short-lived signed tickets,
// since an EventSource cannot send a bearer token.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  liveEventNames,
  liveResources,
  type EventTicket,
  type LiveChange,
  type LiveResource,
} from '@careplane/shared/events/events.contract';
import type { Caller } from '@/lib/caller.js';
import { GRANT_RESOURCE } from '@/auth-server/grants.js';
import type { Change, RelayedChanges } from '@/lib/changes.js';
import { serviceTexts, tooManyRequests, unauthorized } from '@/lib/errors.js';
import type { SecretBox } from '@/lib/secret-box.js';
import { confirmSignIn, type SignInChecks } from '@/lib/sign-in.js';
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
  isAdmin: boolean;
  /** Admins: every center; a supervisor: their centers when the stream opened. */
  centers: CenterSet;
  /** Milliseconds since the epoch: the stream ends then (the access token's expiry), and the client asks anew. */
  until: number;
}

interface TicketBody {
  /** The caller's subject, user, admin right and roles, as the access token gave them. */
  s: string;
  u: string | null;
  a: boolean;
  r: string[];
  l: string[];
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
  /** Whether the sign-in a ticket was issued under still stands, as the API's bearer check asks it. */
  signIns: SignInChecks;
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
      u: caller.userId,
      a: caller.isAdmin,
      r: caller.roles,
      l: caller.localRoles,
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
    // A ticket outlives nothing: a sign-in ended or an account blocked since it was issued opens no stream.
    await confirmSignIn(options.signIns, body.s, body.g);
    const caller: Caller = {
      subject: body.s,
      userId: body.u,
      isAdmin: body.a,
      roles: body.r,
      localRoles: body.l,
      claims: {},
    };
    // A supervisor's centers as they are now; one who no longer supervises any is refused (403).
    const centers = await scope.supervisedCenters(caller);
    return {
      subject: body.s,
      ticket: signature!,
      userId: body.u,
      grantId: body.g ?? null,
      isAdmin: body.a,
      centers,
      until: body.until,
    };
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
        if (await visible(client.viewer, event)) client.write(changeFrame(event));
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

  /** Ends the stream, in its turn, once its sign-in has ended or its account is blocked. */
  function recheck(client: Client) {
    const { subject, grantId } = client.viewer;
    client.queue = client.queue
      .then(() => confirmSignIn(options.signIns, subject, grantId))
      .then(
        () => undefined,
        (error: unknown) => {
          if ((error as { statusCode?: number }).statusCode === 401) endStream(client);
          else onError(error);
        },
      );
  }

  /** A sign-in that ended ends its streams at once; a change of a watcher's own record has them checked. */
  function heedSignIns(change: Change) {
    if (change.resource === GRANT_RESOURCE && change.action === 'revoke') {
      for (const client of clients) if (client.viewer.grantId === change.recordId) endStream(client);
    } else if (change.resource === 'users' || change.resource === '*') {
      for (const client of clients) {
        if (change.recordId === null || change.recordId === client.viewer.userId) recheck(client);
      }
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
