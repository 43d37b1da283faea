// Every request is answered within its deadline (REQUEST_DEADLINE_MS): past it, a 504 in the error shape,
// whatever the request still waits for. The clock starts when the request arrives, before authentication,
// which reads the database too. Routes that wait or stream by design (the live event stream, a device's long
// poll, uploads read in the handler) opt out with `config: { deadline: false }` or set their own.
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { pickLanguage } from '@careplane/shared/i18n/languages';
import { errorBody, serviceTexts } from '@/lib/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own deadline in milliseconds, or false for none. */
    deadline?: number | false;
  }
  interface FastifyRequest {
    deadlineTimer?: NodeJS.Timeout;
  }
}

/** What a route began to say about its own answer (a static file's type, length, encoding) no longer holds. */
const ITS_OWN_HEADERS = ['content-type', 'content-length', 'content-encoding', 'etag', 'last-modified'];

/** The 504, in the request's language (decision 048). */
const answer = (reply: FastifyReply) => {
  for (const name of ITS_OWN_HEADERS) reply.removeHeader(name);
  const language = pickLanguage(reply.request.headers['accept-language']);
  return reply
    .status(504)
    .header('cache-control', 'no-store')
    .header('content-language', language)
    .type('application/json; charset=utf-8')
    .send(errorBody(504, serviceTexts.deadlinePassed[language]));
};

export const deadlinePlugin = fp(async (app: FastifyInstance, { ms }: { ms: number }) => {
  // Callback hooks: they run for every request, and an async hook costs a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config.deadline;
    if (own === false) return done();
    const limit = own ?? ms;
    request.deadlineTimer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent) return;
      request.log.warn({ deadlineMs: limit, url: request.url }, 'a request passed its deadline');
      void answer(reply);
    }, limit);
    request.deadlineTimer.unref();
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    clearTimeout(request.deadlineTimer);
    done();
  });
  // A client that went away is answered by no one: its request did not pass a deadline, it ended.
  app.addHook('onRequestAbort', (request, done) => {
    clearTimeout(request.deadlineTimer);
    done();
  });
});
