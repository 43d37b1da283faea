// The console's runtime settings (decisions §8), served by the server at /config.json and read once at start
// by the console and the authenticator. One schema for the three: the server's answer is checked against it and
// the authenticator parses with it; the console checks the same rules without zod to keep its first page light
// (apps/web/src/lib/config.ts, whose test holds it to this schema; docs/decisions/029).
import * as z from 'zod/mini';

const url = z.string().check(z.maxLength(2048));

export const runtimeConfigSchema = z.object({
  /** Where the API is (`<PUBLIC_URL>`). */
  apiUrl: url,
  appServerUrl: url,
  /** The auth server's issuer. */
  authUrl: url,
  supportEmail: z.string().check(z.maxLength(254)),
  googlePlayUrl: z.nullable(url),
  appStoreUrl: z.nullable(url),
  mapsKey: z.nullable(z.string().check(z.maxLength(512))),
  mapsRegion: z.string().check(z.maxLength(8)),
  mapsLanguage: z.string().check(z.maxLength(35)),
  sentryDsn: z.nullable(url),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

const withoutTrailingSlash = (address: string) => address.replace(/\/+$/, '');

/**
 * Reads a served configuration; a broken deployment fails at start with a message that names the field.
 * Addresses lose their trailing slashes, so paths can be appended to them.
 */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null) {
    throw new Error('The runtime configuration is not an object');
  }
  const parsed = z.safeParse(runtimeConfigSchema, value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'a field');
    const missing = (value as Record<string, unknown>)[field] === undefined;
    throw new Error(`The runtime configuration ${missing ? 'lacks' : 'has an invalid'} ${field}`);
  }
  const config = parsed.data;
  return {
    ...config,
    apiUrl: withoutTrailingSlash(config.apiUrl),
    appServerUrl: withoutTrailingSlash(config.appServerUrl),
    authUrl: withoutTrailingSlash(config.authUrl),
  };
}
