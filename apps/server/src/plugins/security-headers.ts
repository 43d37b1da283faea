// Security headers on every answer (decision 022), through @fastify/helmet: a content security policy
// without inline scripts for the console and the authenticator (Mantine sets inline styles, so styles may be
// inline; scripts may not), no sniffing, no framing, no referrer, and HSTS when the server is reached over
// HTTPS. Permissions-Policy (which helmet leaves out) allows the camera only where the authenticator scans.
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '@/config.js';

/** The authenticator's address: the only place that may use the camera (to scan QR codes). */
const CAMERA_PATH = /^\/authenticator(\/|$|\?)/;
// Only features Chromium knows: an unknown one ('bluetooth') makes it warn on every page.
const DENIED_FEATURES = ['geolocation', 'microphone', 'payment', 'usb', 'serial', 'midi'];
const permissionsPolicy = (camera: boolean) =>
  [`camera=${camera ? '(self)' : '()'}`, ...DENIED_FEATURES.map((feature) => `${feature}=()`)].join(', ');

const originOf = (url: string | null | undefined) => {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};

/** The policy's directives: the console's own origin, plus the maps service and error reporting when set. */
export function contentSecurityDirectives(config: AppConfig) {
  const maps = config.console.mapsKey ? ['https://maps.googleapis.com', 'https://maps.gstatic.com'] : [];
  const mapImages = config.console.mapsKey ? ['https://*.googleapis.com', 'https://*.gstatic.com'] : [];
  const fonts = config.console.mapsKey ? ['https://fonts.gstatic.com'] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...maps],
    styleSrc: [
      "'self'",
      "'unsafe-inline'",
      ...(config.console.mapsKey ? ['https://fonts.googleapis.com'] : []),
    ],
    imgSrc: ["'self'", 'data:', 'blob:', ...mapImages],
    fontSrc: ["'self'", 'data:', ...fonts],
    connectSrc: ["'self'", ...originOf(config.console.sentryDsn), ...maps],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    // Only over HTTPS: on plain HTTP (a local start) it would send the console's requests to a port
    // that does not answer.
    upgradeInsecureRequests: config.publicUrl.startsWith('https:') ? [] : null,
  };
}

/**
 * helmet's headers for this configuration, as helmet sets them, found once: @fastify/helmet rebuilds helmet's
 * middleware (and parses the policy's directives) for every request, where the answer is always the same
 * (no nonces, no per-route options here). A throwaway instance with the plugin answers one request, and the
 * headers its hooks set before the handler ran are the ones every answer gets.
 */
async function helmetHeaders(config: AppConfig): Promise<[string, string | number | string[]][]> {
  const https = config.publicUrl.startsWith('https:');
  const probe = Fastify({ logger: false });
  await probe.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(config) },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  let headers: [string, string | number | string[]][] = [];
  probe.get('/', (_request, reply) => {
    headers = Object.entries(reply.raw.getHeaders()).filter(
      (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
    );
    return reply.send('');
  });
  await probe.inject({ url: '/' });
  await probe.close();
  if (headers.length === 0) throw new Error('helmet set no headers');
  return headers;
}

export const securityHeadersPlugin = fp(async (app: FastifyInstance, { config }: { config: AppConfig }) => {
  const headers = await helmetHeaders(config);
  const policies = { camera: permissionsPolicy(true), none: permissionsPolicy(false) };
  app.addHook('onRequest', (request, reply, done) => {
    // Set on the raw answer, as helmet does, so that answers the auth server writes carry them too.
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    raw.setHeader('permissions-policy', CAMERA_PATH.test(request.url) ? policies.camera : policies.none);
    done();
  });
});
