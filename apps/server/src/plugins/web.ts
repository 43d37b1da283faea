// The console: its build (apps/web/dist) at every address outside /api and /auth, and its runtime settings
// at /config.json (decisions §8).
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic, { type SetHeadersResponse } from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runtimeConfigSchema, type RuntimeConfig } from '@careplane/shared/common/runtime-config';
import type { AppConfig } from '@/config.js';
import { AppError, serviceTexts } from '@/lib/errors.js';
import { defaultWebRoot } from '@/locations.js';

export function runtimeConfigOf(config: AppConfig): RuntimeConfig {
  return {
    apiUrl: config.publicUrl,
    appServerUrl: config.publicUrl,
    authUrl: config.auth.issuer,
    ...config.console,
  };
}

export interface WebPluginOptions {
  config: AppConfig;
  /** The console's build; defaults to apps/web/dist. */
  root?: string;
}

/**
 * Built files that are no addresses: the compressed copies (sent in place of their files) and the source maps,
 * which the build writes for error reporting without announcing them (`sourcemap: 'hidden'`); served, they
 * would hand out the console's readable source.
 */
export const NOT_SERVED = ['**/*.br', '**/*.gz', '**/*.map'];

/**
 * Headers of a built file or of its compressed copy. Vite names assets by content hash: they never change, and
 * are cached for a year; the rest, above all index.html, is revalidated every time. Which copy is sent depends
 * on Accept-Encoding, so caches must keep them apart (@fastify/static 9 does not say so itself).
 */
export function setBuiltFileHeaders(response: SetHeadersResponse, filePath: string) {
  const immutable = filePath.split(path.sep).includes('assets');
  response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  response.setHeader('vary', 'accept-encoding');
}

// Addresses that belong to the server, never to the console: an unknown one stays a JSON 404.
const serverOwned = /^\/(api|auth)(\/|$)/;
// A last path segment with an extension names a file; a missing file is a 404, not the console.
const namesFile = /\/[^/]*\.[^/]*$/;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where a page asked at another name of this machine belongs: the console at http://127.0.0.1:3000 while
 * PUBLIC_URL is http://localhost:3000 signs in and calls the API at PUBLIC_URL, which its own content policy
 * (connect-src 'self') refuses from another origin, so the sign-in failed. Such a page is sent to PUBLIC_URL.
 * Only loopback names on the same port: any other host is the proxy's business, not guessed at here.
 */
export function publicAddressOf(
  publicUrl: string,
  host: string | undefined,
  url: string,
): string | undefined {
  if (!host) return undefined;
  const wanted = new URL(publicUrl);
  let asked: URL;
  try {
    asked = new URL(`${wanted.protocol}//${host}`);
  } catch {
    return undefined;
  }
  const sameMachine = LOOPBACK.has(asked.hostname) && LOOPBACK.has(wanted.hostname);
  if (asked.host === wanted.host || !sameMachine || asked.port !== wanted.port) return undefined;
  return new URL(url, wanted).toString();
}

export async function webPlugin(app: FastifyInstance, options: WebPluginOptions) {
  const runtimeConfig = runtimeConfigOf(options.config);
  app.withTypeProvider<ZodTypeProvider>().get('/config.json', {
    schema: {
      tags: ['console'],
      summary: "The console's runtime settings",
      security: [],
      response: { 200: runtimeConfigSchema },
    },
    handler: async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      return runtimeConfig;
    },
  });

  const root = options.root ?? defaultWebRoot;
  const built = existsSync(path.join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      // One route per built file, so the console's own fallback below can own every other address.
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build's .br and .gz copies (scripts/precompress.mjs) are sent in place of a file to a client
      // that accepts them (decision 018); they are no addresses of their own.
      preCompressed: true,
      globIgnore: NOT_SERVED,
      setHeaders: (response, filePath) => {
        setBuiltFileHeaders(response, filePath);
        // The installable console (decision 046): its manifest by its own type. sw.js is no asset: it is
        // revalidated on every load like index.html, so a new build's worker is found at once.
        if (filePath.endsWith('.webmanifest'))
          response.setHeader('content-type', 'application/manifest+json');
      },
    });
  } else {
    app.log.warn(`The console is not built (${root} has no index.html): run \`npm run build\``);
  }

  app.get('/*', { schema: { hide: true } }, (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (serverOwned.test(pathname) || namesFile.test(pathname)) return reply.callNotFound();
    if (!built) throw new AppError(404, serviceTexts.consoleNotBuilt);
    const elsewhere = publicAddressOf(options.config.publicUrl, request.headers.host, request.url);
    if (elsewhere) return reply.redirect(elsewhere, 302);
    return reply.sendFile('index.html');
  });
}
