// GET /api/metrics: the Prometheus exposition of this process. With METRICS_TOKEN a scraper sends it as a
// bearer token (Prometheus' `authorization` setting); without one, only admins read it. And the timing of every
// request, by route pattern, for it.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { requireAdmin } from '@/lib/caller.js';
import { serviceTexts, unauthorized } from '@/lib/errors.js';
import { errorResponses } from '@/lib/http.js';
import type { MetricsService } from './metrics.service.js';

export const METRICS_PATH = '/api/metrics';

/** Times every request of the app (registered at its root, so it sees every route). */
export const requestMetricsPlugin = fp(
  async (app: FastifyInstance, { service }: { service: MetricsService }) => {
    app.addHook('onResponse', (request, reply, done) => {
      service.recordRequest(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
);

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export async function metricsModule(
  app: FastifyInstance,
  { service, token }: { service: MetricsService; token: (() => string) | null },
) {
  const scraperOnly = async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!given) throw unauthorized(serviceTexts.metricsTokenRequired);
    if (!token || !sameSecret(given, token())) throw unauthorized(serviceTexts.metricsTokenWrong);
  };
  app.get(METRICS_PATH, {
    // With a token the scraper needs no sign-in; without one the route is an admin's, like the admin area.
    config: { public: token !== null, access: 'metrics' },
    onRequest: token ? scraperOnly : requireAdmin,
    schema: {
      tags: ['metrics'],
      summary:
        'Prometheus metrics of this process: METRICS_TOKEN as a bearer token when it is set, an admin otherwise',
      ...(token ? { security: [{ metricsToken: [] }] } : {}),
      response: { 200: z.string().describe('text/plain; version=0.0.4'), ...errorResponses },
    },
    handler: async (_request, reply) => {
      const { contentType, body } = await service.scrape();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
    },
  });
}
