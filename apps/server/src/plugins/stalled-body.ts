// A request whose body stops arriving (a Content-Length larger than what is sent, a client that stalls) is
// answered 408 within seconds and its connection closed, instead of holding the server open. Progress is read
// from the socket, so slow but moving uploads are left alone, and it works for every route, the auth
// server's raw handler included.
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pickLanguage } from '@careplane/shared/i18n/languages';
import { serviceTexts } from '@/lib/errors.js';

export interface StalledBodyOptions {
  /** How long a body may go without a single byte arriving (ms). */
  idleMs?: number;
  /** How often progress is looked at (ms). */
  tickMs?: number;
}

const expectsBody = (headers: Record<string, string | string[] | undefined>) => {
  const length = Number(headers['content-length'] ?? 0);
  return (Number.isFinite(length) && length > 0) || headers['transfer-encoding'] !== undefined;
};

interface Watched {
  request: FastifyRequest;
  reply: FastifyReply;
  lastRead: number;
  idle: number;
}

export const stalledBodyPlugin = fp(async (app: FastifyInstance, options: StalledBodyOptions) => {
  const idleMs = options.idleMs ?? 5_000;
  const tickMs = options.tickMs ?? Math.min(500, idleMs / 4);
  // One timer looks at every body still arriving: a timer and three listeners per request cost more than
  // the requests they watch (most bodies are whole before the first look).
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;
  const look = () => {
    for (const entry of watched) {
      const raw = entry.request.raw;
      const socket = raw.socket;
      if (raw.complete || socket.destroyed || entry.reply.raw.writableEnded) {
        watched.delete(entry);
        continue;
      }
      if (socket.bytesRead !== entry.lastRead) {
        entry.lastRead = socket.bytesRead;
        entry.idle = 0;
        continue;
      }
      entry.idle += tickMs;
      if (entry.idle < idleMs) continue;
      watched.delete(entry);
      stalled(entry.request, entry.reply);
    }
    if (watched.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const stalled = (request: FastifyRequest, reply: FastifyReply) => {
    const socket = request.raw.socket;
    request.log.info({ url: request.url }, 'request body stalled: answered 408');
    void reply.hijack();
    if (reply.raw.headersSent) {
      socket.destroy();
      return;
    }
    const language = pickLanguage(request.headers['accept-language']);
    const body = JSON.stringify({
      statusCode: 408,
      error: STATUS_CODES[408],
      message: serviceTexts.bodyStalled(Math.round(idleMs / 1000))[language],
    });
    reply.raw.writeHead(408, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'content-language': language,
      connection: 'close',
    });
    reply.raw.end(body, () => socket.destroy());
  };
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (!raw.complete && expectsBody(raw.headers) && raw.socket) {
      watched.add({ request, reply, lastRead: raw.socket.bytesRead, idle: 0 });
      if (!timer) {
        timer = setInterval(look, tickMs);
        timer.unref();
      }
    }
    done();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    watched.clear();
  });
});
