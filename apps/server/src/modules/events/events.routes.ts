// /api/events/ticket and /api/events: the live event stream (server-sent events) and the ticket that opens it.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  eventEndpoints,
  eventStreamQuerySchema,
  eventTicketSchema,
} from '@careplane/shared/events/events.contract';
import { accessRules, allow, requireCaller } from '@/lib/caller.js';
import { errorResponses as errors } from '@/lib/http.js';
import type { EventsService } from './events.service.js';

/** What may wait unsent for a slow client before its stream is ended. */
const MAX_UNSENT_BYTES = 1024 * 1024;

export async function eventsModule(app: FastifyInstance, { service }: { service: EventsService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['events'];
  const ends = new Set<() => void>();

  typed.post(eventEndpoints.ticket, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'careTeam' },
    schema: {
      tags,
      summary: 'A ticket that opens the live event stream for a minute (admins and supervisors)',
      response: { 200: eventTicketSchema, ...errors },
    },
    handler: async (request) => service.issueTicket(requireCaller(request)),
  });

  typed.get(eventEndpoints.stream, {
    // An EventSource sends no Authorization header: the ticket in the query is the credential. A stream lives
    // until the token it was opened with expires, its sign-in ends, its account is blocked or its watcher's
    // rights leave them nothing to watch: no request deadline.
    config: { public: true, access: 'public', deadline: false },
    schema: {
      tags,
      summary:
        'Server-sent events: `change` for each committed change the caller may read, `resync`, `ready`; resumes after `Last-Event-ID`',
      querystring: eventStreamQuerySchema,
      produces: ['text/event-stream'],
      response: { ...errors },
    },
    handler: async (request, reply) => {
      const viewer = await service.openTicket(request.query.ticket);
      service.admit(viewer);
      const header = request.headers['last-event-id'];
      const lastEventId = (Array.isArray(header) ? header[0] : header) ?? request.query.lastEventId;
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      // A dropped stream is retried by the browser after two seconds.
      response.write('retry: 2000\n\n');
      const end = () => {
        clearTimeout(expiry);
        disconnect();
        ends.delete(end);
        if (!response.writableEnded) response.end();
      };
      // The service ends the stream too: when its sign-in ends, its account is blocked or its rights are gone.
      const disconnect = service.connect(viewer, lastEventId, {
        write: (frame) => {
          if (response.writableEnded) return;
          // A client that stopped reading is let go rather than buffered for without end; it resumes on
          // reconnect.
          if (response.writableLength > MAX_UNSENT_BYTES) end();
          else response.write(frame);
        },
        end,
      });
      // The stream ends when the access token it was opened with expires; the client asks for a new ticket.
      const expiry = setTimeout(end, Math.max(0, viewer.until - Date.now()));
      expiry.unref();
      ends.add(end);
      request.raw.once('close', end);
    },
  });

  // Open streams would keep the server from closing.
  app.addHook('preClose', async () => {
    for (const end of [...ends]) end();
  });
}
