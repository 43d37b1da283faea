// The signed-in user's own routes: POST /api/auth (first and every later sign-in), GET /api/users/me,
// GET /api/users/me/avatar, PATCH /api/users/me/preferences, and their own phones (GET /api/users/me/phones,
// POST /api/users/me/phones/:phoneId/revoke). Any signed-in caller; no admin rights needed. These static paths
// win over the admin-only /api/users/:id (the router prefers a static segment to a parameter).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AVATAR_DEFAULT_SIZE,
  accountPreferencesSchema,
  avatarQuerySchema,
  ownPhoneParamsSchema,
  phoneListSchema,
  phoneSchema,
  signInRequestSchema,
} from '@careplane/shared/users/account.contract';
import { userEndpoints, userSchema } from '@careplane/shared/users/users.contract';
import { accessRules, allow, requireCaller } from '@/lib/caller.js';
import { AppError, serviceTexts, unauthorized } from '@/lib/errors.js';
import { actionContext, errorResponses } from '@/lib/http.js';
import { avatarSvg, verifyIdToken, type IdTokenVerifier } from './account.service.js';
import type { UsersService } from './users.service.js';

export interface AccountRouteOptions {
  service: UsersService;
  verifier: IdTokenVerifier;
}

export async function accountRoutes(app: FastifyInstance, { service, verifier }: AccountRouteOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  /** The caller's own record; 404 until the first POST /api/auth created it. */
  const me = async (request: FastifyRequest) => {
    const caller = requireCaller(request);
    if (!caller.userId) {
      throw new AppError(404, serviceTexts.noUserRecordYet);
    }
    return service.users.read(caller.userId, { relations: [] });
  };

  typed.post(userEndpoints.signIn, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['account'],
      summary: "Sign in: create or update the caller's user from the identity token (returns the user)",
      description:
        'The Authorization header carries the access token and the body the id_token of the same sign-in; ' +
        'both must name the same subject. Roles (at the first sign-in), names and contact details are copied ' +
        'from the id_token; a detail it does not state keeps the value the record has.',
      body: signInRequestSchema,
      response: { 200: userSchema, ...errorResponses },
    },
    handler: async (request) => {
      const caller = requireCaller(request);
      const claims = await verifyIdToken(verifier, request.body.idToken);
      if (claims.sub !== caller.subject) {
        throw unauthorized(serviceTexts.tokensOfDifferentIdentities);
      }
      const user = await service.signIn(claims, actionContext(request));
      app.forgetCachedUser(caller.subject);
      return user;
    },
  });

  typed.get(userEndpoints.me, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['account'],
      summary: 'The signed-in user (with localRoles)',
      response: { 200: userSchema, ...errorResponses },
    },
    handler: async (request) => me(request),
  });

  typed.patch(userEndpoints.preferences, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['account'],
      summary: "The signed-in user's own choices: the console's language (en, th; null follows the browser)",
      body: accountPreferencesSchema,
      response: { 200: userSchema, ...errorResponses },
    },
    handler: async (request) => {
      const user = await me(request);
      return service.setPreferences(user.id, request.body, actionContext(request));
    },
  });

  typed.get(userEndpoints.avatar, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['account'],
      summary: "The signed-in user's avatar (SVG), width and height 16–512 pixels (default 128)",
      querystring: avatarQuerySchema,
      response: { 200: z.string().describe('image/svg+xml'), ...errorResponses },
    },
    handler: async (request, reply) => {
      const user = await me(request);
      const width = request.query.width ?? request.query.height ?? AVATAR_DEFAULT_SIZE;
      const height = request.query.height ?? request.query.width ?? AVATAR_DEFAULT_SIZE;
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(avatarSvg(user, width, height));
    },
  });

  typed.get(userEndpoints.myPhones, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['account'],
      summary: "The phones enrolled for the signed-in user's sign-in, revoked ones included",
      response: { 200: phoneListSchema, ...errorResponses },
    },
    handler: async (request) => ({ items: await service.phones((await me(request)).id) }),
  });

  typed.post(`${userEndpoints.myPhones}/:phoneId/revoke`, {
    onRequest: allow(accessRules.signedIn),
    config: { access: 'signedIn' },
    schema: {
      tags: ['account'],
      summary:
        'Revoke one of your own phones (a lost one): it approves and signs nothing more, and all your sign-ins end, this one too',
      params: ownPhoneParamsSchema,
      response: { 200: phoneSchema, ...errorResponses },
    },
    handler: async (request) =>
      service.revokePhone((await me(request)).id, request.params.phoneId, actionContext(request)),
  });
}
