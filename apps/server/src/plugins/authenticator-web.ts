// The authenticator (the phone app, a PWA): its build (apps/authenticator/dist) at /authenticator. Every
// address below it that names no file is the app (its enrollment and QR links among them); a missing file is
// a 404. The service worker and the page are always revalidated; built assets are immutable.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, serviceTexts } from '@/lib/errors.js';
import { defaultAuthenticatorRoot } from '@/locations.js';
import { NOT_SERVED, setBuiltFileHeaders } from './web.js';

export const AUTHENTICATOR_PATH = '/authenticator';

export interface AuthenticatorWebOptions {
  /** The authenticator's build; defaults to apps/authenticator/dist. */
  root?: string;
}

const namesFile = /\/[^/]*\.[^/]*$/;

export async function authenticatorWebPlugin(app: FastifyInstance, options: AuthenticatorWebOptions) {
  const root = options.root ?? defaultAuthenticatorRoot;
  const built = existsSync(path.join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: `${AUTHENTICATOR_PATH}/`,
      wildcard: false,
      index: false,
      cacheControl: false,
      // As for the console: the precompressed copies of the build (decision 018).
      preCompressed: true,
      globIgnore: NOT_SERVED,
      setHeaders: (response, filePath) => {
        setBuiltFileHeaders(response, filePath);
        if (filePath.endsWith('.webmanifest'))
          response.setHeader('content-type', 'application/manifest+json');
      },
    });
  } else {
    app.log.warn(`The authenticator is not built (${root} has no index.html): run \`npm run build\``);
  }

  const shell = (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (namesFile.test(pathname)) return reply.callNotFound();
    if (!built) throw new AppError(404, serviceTexts.authenticatorNotBuilt);
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  };
  app.get(AUTHENTICATOR_PATH, { schema: { hide: true } }, shell);
  app.get(`${AUTHENTICATOR_PATH}/*`, { schema: { hide: true } }, shell);
}
