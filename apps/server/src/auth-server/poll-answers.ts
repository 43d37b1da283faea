// The token endpoint's own answer to a CIBA poll that is still pending (decision 051): the provider's
// authorization_pending or slow_down, byte for byte and in the request's language as the provider's are
// (decision 048), without the provider's stack. Any request this does not
// recognise as such a poll goes to the provider (with its body, replayed: token-request.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { languages, pickLanguage, type Language } from '@careplane/shared/i18n/languages';
import { errors } from './oidc.js';
import type { PollThrottle } from './ciba-poll.js';
import { providerErrorDescription } from './provider-texts.js';
import { CIBA_GRANT_TYPE } from './provider.js';
import { readsBody } from './token-request.js';

/** A poll's body is about 120 bytes; anything much larger is not one (and goes to the provider unread). */
const MAX_POLL_BODY = 1024;
const POLL_PARAMS = new Set(['grant_type', 'auth_req_id', 'client_id']);

export interface PollAnswerSettings {
  /** Clients that poll without authenticating (token_endpoint_auth_method none) and may use CIBA. */
  publicCibaClients: ReadonlySet<string>;
  /** The one origin the provider allows a browser to call from (its clientBasedCORS). */
  allowedOrigin: string;
}

export interface PollAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Whether a token request could be a poll this answers (its body is then read by the token route). */
export function mayBePoll(headers: IncomingHttpHeaders, settings: PollAnswerSettings): boolean {
  return (
    readsBody(headers) &&
    Number(headers['content-length']) <= MAX_POLL_BODY &&
    // Client authentication, DPoP and a foreign origin are the provider's to judge.
    headers.authorization === undefined &&
    headers.dpop === undefined &&
    (headers.origin === undefined || headers.origin === settings.allowedOrigin)
  );
}

/** The poll's request id and client when the body is exactly a public client's CIBA poll. */
function pollOf(body: Buffer, settings: PollAnswerSettings): { id: string; clientId: string } | undefined {
  const params = new URLSearchParams(body.toString('utf8'));
  const seen = new Set<string>();
  for (const [name, value] of params) {
    // A parameter twice, an unexpected one or an empty one: the provider says what is wrong with it.
    if (!POLL_PARAMS.has(name) || seen.has(name) || value === '') return undefined;
    seen.add(name);
  }
  const id = params.get('auth_req_id');
  const clientId = params.get('client_id');
  if (params.get('grant_type') !== CIBA_GRANT_TYPE || !id || !clientId) return undefined;
  if (!settings.publicCibaClients.has(clientId)) return undefined;
  return { id, clientId };
}

/** The error in the provider's format, described in `language` as the provider's answers are (provider.ts). */
const describe = (error: { error: string; error_description?: string }, language: Language) =>
  JSON.stringify({
    error: error.error,
    error_description: providerErrorDescription(error.error, error.error_description ?? '', language),
  });
// The provider's own words, taken from its error classes so that they cannot drift, in each language.
const ANSWERS = Object.fromEntries(
  languages.map((language) => [
    language,
    {
      pending: describe(new errors.AuthorizationPending(), language),
      slow_down: describe(new errors.SlowDown(), language),
    },
  ]),
) as Record<Language, { pending: string; slow_down: string }>;

/**
 * The answer to a token request's body when it is a pending CIBA poll, in the provider's format (its CORS
 * headers for the allowed origin, no-store, the JSON error); undefined when the provider must answer.
 */
export async function answerPoll(
  polls: PollThrottle,
  settings: PollAnswerSettings,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<PollAnswer | undefined> {
  const poll = pollOf(body, settings);
  if (!poll) return undefined;
  const answer = await polls.answer(poll.id, poll.clientId);
  if (!answer) return undefined;
  const language = pickLanguage(headers['accept-language']);
  const text = ANSWERS[language][answer];
  return {
    status: 400,
    headers: {
      vary: 'Origin',
      'content-language': language,
      'access-control-allow-origin': headers.origin ?? '*',
      'access-control-expose-headers': 'WWW-Authenticate',
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
    },
    body: text,
  };
}
