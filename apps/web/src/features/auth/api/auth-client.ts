// The auth server's sign-in calls (decisions §3): QR sessions, the CIBA backchannel request, the token
// endpoint (CIBA and refresh grants). Endpoints come from the discovery document, the base from /config.json.
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import type { QrSession, QrSessionStatus } from '@careplane/shared/auth/qr-session.contract';
import { getRuntimeConfig } from '@/lib/config.ts';
import { currentLanguage } from '@/lib/i18n/language.ts';

export const CIBA_GRANT_TYPE = 'urn:openid:params:grant-type:ciba';
const SCOPE = 'openid';

interface Discovery {
  token_endpoint: string;
  backchannel_authentication_endpoint: string;
}

export interface BackchannelRequest {
  auth_req_id: string;
  expires_in: number;
  interval?: number;
}

export interface TokenAnswer {
  access_token: string;
  id_token?: string;
  refresh_token?: string;
  expires_in: number;
}

/** The answer of one poll of the token endpoint, by what the console does next. */
export type TokenPoll =
  | { kind: 'tokens'; tokens: TokenAnswer }
  | { kind: 'pending' }
  | { kind: 'slow_down' }
  | { kind: 'expired' }
  | { kind: 'denied' };

/** A refusal of the auth server with its OAuth error code when it gave one. */
export class AuthServerError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.name = 'AuthServerError';
    this.status = status;
    this.code = code;
  }
}

const authUrl = (path: string) => `${getRuntimeConfig().authUrl}${path}`;

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => ({}));
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

async function refusal(response: Response): Promise<AuthServerError> {
  const body = await readJson(response);
  const code = typeof body.error === 'string' ? body.error : undefined;
  const message =
    (typeof body.error_description === 'string' && body.error_description) ||
    (typeof body.message === 'string' && body.message) ||
    code ||
    `The sign-in service answered ${response.status}`;
  return new AuthServerError(response.status, code, message);
}

let discovery: Promise<Discovery> | undefined;

/** The discovery document, fetched once. */
export function getDiscovery(): Promise<Discovery> {
  discovery ??= (async () => {
    const response = await fetch(authUrl('/.well-known/openid-configuration'), {
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw await refusal(response);
    const body = await readJson(response);
    if (
      typeof body.token_endpoint !== 'string' ||
      typeof body.backchannel_authentication_endpoint !== 'string'
    ) {
      throw new AuthServerError(
        response.status,
        undefined,
        'The sign-in service does not offer backchannel sign-in',
      );
    }
    return {
      token_endpoint: body.token_endpoint,
      backchannel_authentication_endpoint: body.backchannel_authentication_endpoint,
    };
  })().catch((error: unknown) => {
    discovery = undefined;
    throw error;
  });
  return discovery;
}

/** For tests: forget the cached discovery document. */
export const resetDiscovery = () => {
  discovery = undefined;
};

const postForm = (url: string, form: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    // A refusal the console shows as it came (too many sign-ins) is in the language on screen.
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...answerHeaders() },
    body: new URLSearchParams(form).toString(),
  });

/** What every call to the auth server says: JSON back, and a refusal in the language on screen. */
const answerHeaders = () => ({ accept: 'application/json', 'accept-language': currentLanguage() });

export async function createQrSession(bindingMessage?: string): Promise<QrSession> {
  const response = await fetch(authUrl('/qr/sessions'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...answerHeaders() },
    body: JSON.stringify({
      client_id: CONSOLE_CLIENT_ID,
      ...(bindingMessage ? { binding_message: bindingMessage } : {}),
    }),
  });
  if (!response.ok) throw await refusal(response);
  return (await response.json()) as QrSession;
}

export async function getQrSessionStatus(sessionId: string): Promise<QrSessionStatus> {
  const response = await fetch(authUrl(`/qr/sessions/${encodeURIComponent(sessionId)}`), {
    headers: answerHeaders(),
  });
  if (response.status === 404) return { status: 'expired' };
  if (!response.ok) throw await refusal(response);
  return (await response.json()) as QrSessionStatus;
}

export async function startBackchannel(
  loginHint: string,
  bindingMessage: string,
): Promise<BackchannelRequest> {
  const { backchannel_authentication_endpoint: endpoint } = await getDiscovery();
  const response = await postForm(endpoint, {
    client_id: CONSOLE_CLIENT_ID,
    scope: SCOPE,
    login_hint: loginHint,
    binding_message: bindingMessage,
  });
  if (!response.ok) throw await refusal(response);
  return (await response.json()) as BackchannelRequest;
}

export async function pollToken(authRequestId: string): Promise<TokenPoll> {
  const { token_endpoint: endpoint } = await getDiscovery();
  const response = await postForm(endpoint, {
    client_id: CONSOLE_CLIENT_ID,
    grant_type: CIBA_GRANT_TYPE,
    auth_req_id: authRequestId,
  });
  if (response.ok) return { kind: 'tokens', tokens: (await response.json()) as TokenAnswer };
  const error = await refusal(response);
  switch (error.code) {
    case 'authorization_pending':
      return { kind: 'pending' };
    case 'slow_down':
      return { kind: 'slow_down' };
    case 'expired_token':
      return { kind: 'expired' };
    case 'access_denied':
      return { kind: 'denied' };
    case undefined:
    default:
      throw error;
  }
}

export async function refreshTokens(refreshToken: string): Promise<TokenAnswer> {
  const { token_endpoint: endpoint } = await getDiscovery();
  const response = await postForm(endpoint, {
    client_id: CONSOLE_CLIENT_ID,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
  if (!response.ok) throw await refusal(response);
  return (await response.json()) as TokenAnswer;
}
