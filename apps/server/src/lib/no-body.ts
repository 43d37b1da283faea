// A write route whose contract declares no body takes none (decision 111). Fastify reads a JSON body whatever the
// route declares, and a route without a body schema never looked at it: `{"deviceId": …}` or a megabyte of text
// was answered as if it had not been sent. One hook on every such route of the API refuses it, with the contract's
// sentences, before the route runs; no body, or `{}`, is taken as before.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noBodySchema } from '@careplane/shared/common/http';
import { badRequest, zodIssues } from './errors.js';

/** Methods that may carry a body. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that answers whatever body it is sent (a refusal of the method itself): the body is not read. */
    anyBody?: boolean;
  }
  interface FastifyInstance {
    /** The API's write routes that declare no body, and so refuse one (registered after refuseUndeclaredBodies). */
    routesWithoutBody: readonly { method: string; url: string }[];
  }
}

async function refuseBody(request: FastifyRequest) {
  const parsed = noBodySchema.safeParse(request.body);
  if (!parsed.success) throw badRequest('Invalid request', zodIssues('body', parsed.error.issues));
}

/**
 * Adds the refusal to each route of the API (`/api/…`) registered from now on that writes and declares neither a
 * body nor an upload (`consumes`). Routes outside the API (the auth server's forms) read their bodies themselves.
 */
export function refuseUndeclaredBodies(app: FastifyInstance) {
  const table: { method: string; url: string }[] = [];
  app.decorate('routesWithoutBody', table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.schema?.body || route.schema?.consumes) return;
    if (route.config?.anyBody) return;
    const writes = [route.method].flat().filter((method) => WRITES.has(method));
    if (writes.length === 0) return;
    route.preValidation = [refuseBody, ...[route.preValidation ?? []].flat()];
    for (const method of writes) table.push({ method, url: route.url });
  });
}
