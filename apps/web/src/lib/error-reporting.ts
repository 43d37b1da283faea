// Error reporting in production (decisions §8): when the runtime configuration names a Sentry-compatible DSN,
// an error is sent as one event to its envelope endpoint; without a DSN nothing leaves the browser.
import { APP_NAME, APP_VERSION } from '@careplane/shared/common/enums';
import { getRuntimeConfig } from './config.ts';

interface Dsn {
  endpoint: string;
  publicKey: string;
  dsn: string;
}

/** `https://<key>@<host>[/<path>]/<project>` → the envelope endpoint of that project. */
export function parseDsn(dsn: string): Dsn | undefined {
  try {
    const url = new URL(dsn);
    const segments = url.pathname.split('/').filter(Boolean);
    const project = segments.pop();
    if (!url.username || !project) return undefined;
    const base = segments.length ? `/${segments.join('/')}` : '';
    return {
      endpoint: `${url.protocol}//${url.host}${base}/api/${project}/envelope/`,
      publicKey: url.username,
      dsn,
    };
  } catch {
    return undefined;
  }
}

const randomId = () => crypto.randomUUID().replaceAll('-', '');

export function reportError(error: unknown, context: Record<string, string> = {}) {
  if (!import.meta.env.PROD) return;
  let dsnText: string | null;
  try {
    dsnText = getRuntimeConfig().sentryDsn;
  } catch {
    return;
  }
  const dsn = dsnText ? parseDsn(dsnText) : undefined;
  if (!dsn) return;
  const problem = error instanceof Error ? error : new Error(String(error));
  const eventId = randomId();
  const event = {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    release: `${APP_NAME.toLowerCase()}@${APP_VERSION}`,
    environment: 'production',
    request: { url: window.location.href },
    tags: context,
    exception: { values: [{ type: problem.name, value: problem.message, stacktrace: undefined }] },
    extra: { stack: problem.stack },
  };
  const body = [
    JSON.stringify({ event_id: eventId, dsn: dsn.dsn, sent_at: new Date().toISOString() }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify(event),
  ].join('\n');
  const url = `${dsn.endpoint}?sentry_key=${encodeURIComponent(dsn.publicKey)}&sentry_version=7`;
  fetch(url, { method: 'POST', body, keepalive: true }).catch(() => undefined);
}
