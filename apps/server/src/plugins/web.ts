// The console: its build (apps/web/dist) at every address outside /api and /auth, and its runtime settings
// at /config.json (decisions §8).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../config.js';
import { AppError } from '../lib/errors.js';

export const defaultWebRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

const url = z.string().max(2048);

/** What the console reads once at start; everything here is public. */
export const runtimeConfigSchema = z.object({
  apiUrl: url,
  appServerUrl: url,
  authUrl: url,
  supportEmail: z.string().max(254),
  googlePlayUrl: url.nullable(),
  appStoreUrl: url.nullable(),
  mapsKey: z.string().max(512).nullable(),
  mapsRegion: z.string().max(8),
  mapsLanguage: z.string().max(35),
  sentryDsn: url.nullable(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

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

// Addresses that belong to the server, never to the console: an unknown one stays a JSON 404.
const serverOwned = /^\/(api|auth)(\/|$)/;
// A last path segment with an extension names a file; a missing file is a 404, not the console.
const namesFile = /\/[^/]*\.[^/]*$/;

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
      setHeaders: (response, filePath) => {
        // Vite names assets by content hash: they never change; index.html must always be fresh.
        const immutable = filePath.split(path.sep).includes('assets');
        response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn(`The console is not built (${root} has no index.html): run \`npm run build\``);
  }

  app.get('/*', { schema: { hide: true } }, (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (serverOwned.test(pathname) || namesFile.test(pathname)) return reply.callNotFound();
    if (!built) throw new AppError(404, 'The console is not built: run `npm run build`');
    return reply.sendFile('index.html');
  });
}
