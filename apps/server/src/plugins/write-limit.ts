// A modest limit on writes under /api per signed-in caller (decision 022): enough for any person at work,
// and a ceiling on what one stolen or runaway token can do. Counted after authentication, by token subject.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isApiWrite = (request: FastifyRequest) => WRITES.has(request.method) && request.url.startsWith('/api/');

export const writeLimitPlugin = fp(async (app: FastifyInstance, options: { perMinute: number }) => {
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    max: options.perMinute,
    timeWindow: 60_000,
    allowList: (request) => !isApiWrite(request) || !request.caller,
    keyGenerator: (request) => `writes|${request.caller?.subject ?? request.ip}`,
  });
});
