// The token endpoint's own answer to a CIBA poll that is still pending (decision 051): the provider's
// authorization_pending or slow_down, byte for byte and in the request's language as the provider's are
// (decision 048), without the provider's stack. Any request this does not
// recognise as such a poll goes to the provider (with its body, replayed: token-request.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { languages, pickLanguage, type Language } from '@careplane/shared/i18n/languages';
import { errors } from './oidc.js';
import { storable } from './adapter.js';
import type { PollThrottle } from './ciba-poll.js';
import { providerErrorDescription } from './provider-texts.js';
import { CIBA_GRANT_TYPE } from './provider.js';
import { jsonAnswer, onlyOnce, type TokenAnswer, type TokenRouteSettings } from './token-request.js';

const POLL_PARAMS = new Set(['grant_type', 'auth_req_id', 'client_id']);

/** The poll's request id and client when the body is exactly a public client's CIBA poll. */
function pollOf(params: URLSearchParams, settings: TokenRouteSettings) {
  if (params.get('grant_type') !== CIBA_GRANT_TYPE || !onlyOnce(params, POLL_PARAMS)) return undefined;
  const id = params.get('auth_req_id');
  const clientId = params.get('client_id');
  if (!id || !clientId || !storable(id) || !settings.publicCibaClients.has(clientId)) return undefined;
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
      // What the provider answers when a request fails on its side (oidc-provider's error handler).
      failed: describe({ error: 'server_error', error_description: 'oops! something went wrong' }, language),
    },
  ]),
) as Record<Language, { pending: string; slow_down: string; failed: string }>;

/**
 * The answer to a token request when it is a pending CIBA poll, in the provider's format (its CORS headers for
 * the allowed origin, no-store, the JSON error); undefined when the provider must answer.
 */
export async function answerPoll(
  polls: PollThrottle,
  settings: TokenRouteSettings,
  headers: IncomingHttpHeaders,
  params: URLSearchParams,
): Promise<TokenAnswer | undefined> {
  const poll = pollOf(params, settings);
  if (!poll) return undefined;
  const answer = await polls.answer(poll.id, poll.clientId);
  if (!answer) return undefined;
  const language = pickLanguage(headers['accept-language']);
  return jsonAnswer(400, ANSWERS[language][answer], headers, language);
}

/** The provider's answer to a request that failed on the server's side (the database gone, say). */
export function failedAnswer(headers: IncomingHttpHeaders): TokenAnswer {
  const language = pickLanguage(headers['accept-language']);
  return jsonAnswer(500, ANSWERS[language].failed, headers, language);
}
