// A request whose body stops arriving (a Content-Length larger than what is sent, a client that stalls) is
// answered 408 within seconds and its connection closed, instead of holding the server open. Progress is read
// from the socket, so slow but moving uploads are left alone, and it works for every route, the auth
// server's raw handler included.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pickLanguage } from '@careplane/shared/i18n/languages';
import { errorBody, serviceTexts } from '@/lib/errors.js';

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

export const stalledBodyPlugin = fp(async (app: FastifyInstance, options: StalledBodyOptions) => {
  const idleMs = options.idleMs ?? 5_000;
  const tickMs = options.tickMs ?? Math.min(500, idleMs / 4);
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    if (raw.complete || !expectsBody(raw.headers) || !raw.socket) return;
    const socket = raw.socket;
    let lastRead = socket.bytesRead;
    let idle = 0;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return stop();
      if (socket.bytesRead !== lastRead) {
        lastRead = socket.bytesRead;
        idle = 0;
        return;
      }
      idle += tickMs;
      if (idle < idleMs) return;
      stop();
      request.log.info({ url: request.url }, 'request body stalled: answered 408');
      // Whatever is still waiting for the body will see the connection end; nothing else answers.
      void reply.hijack();
      if (!reply.raw.headersSent) {
        const language = pickLanguage(request.headers['accept-language']);
        const body = JSON.stringify(
          errorBody(408, serviceTexts.bodyStalled(Math.round(idleMs / 1000))[language]),
        );
        reply.raw.writeHead(408, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'content-language': language,
          connection: 'close',
        });
        reply.raw.end(body, () => socket.destroy());
      } else {
        socket.destroy();
      }
    }, tickMs);
    timer.unref();
    const stop = () => clearInterval(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    reply.raw.once('close', stop);
  });
});
