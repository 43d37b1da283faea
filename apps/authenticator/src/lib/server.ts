// Which auth server this authenticator works with: the one of the server that serves it (its runtime
// settings name the issuer), and the protocol client for it.
import { AuthenticatorClient, AuthenticatorError } from '@careplane/shared/authenticator/protocol';
import { parseRuntimeConfig } from '@careplane/shared/common/runtime-config';
import { currentLanguage, i18n } from '../i18n/i18n.ts';

const LAST_ISSUER = 'careplane.authenticator.issuer';

/** The issuer from /config.json; offline, the last one seen, else the default mount on this origin. */
export async function loadIssuer(): Promise<string> {
  try {
    const response = await fetch('/config.json', { headers: { accept: 'application/json' } });
    if (response.ok) {
      const { authUrl: issuer } = parseRuntimeConfig(await response.json());
      if (/^https?:\/\//.test(issuer)) {
        localStorage.setItem(LAST_ISSUER, issuer);
        return issuer;
      }
    }
  } catch {
    // offline, or a configuration this version cannot read: fall through
  }
  return localStorage.getItem(LAST_ISSUER) ?? `${location.origin}/auth`;
}

// fetch is handed over bound: a browser refuses window.fetch called as another object's method. Each call
// names the app's language, so the server's refusals come back in it.
export const createClient = (issuer: string) =>
  new AuthenticatorClient({
    issuer,
    fetch: (url, init) =>
      window.fetch(url, { ...init, headers: { ...init.headers, 'accept-language': currentLanguage() } }),
  });

/** The origin a link or issuer belongs to, for comparing and for showing "which site asks". */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** A sentence for the user from a failed call. */
export function explain(error: unknown): string {
  if (error instanceof AuthenticatorError) {
    if (error.status === 429) return i18n.t('server.tooManyAttempts');
    if (error.status === 0 || error.status >= 500) return i18n.t('server.unavailable');
    return error.message;
  }
  if (error instanceof TypeError) return i18n.t('server.offline');
  return error instanceof Error ? error.message : String(error);
}
