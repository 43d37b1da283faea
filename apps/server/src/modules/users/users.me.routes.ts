// The signed-in user's own routes: POST /api/auth (first and every later sign-in), GET /api/users/me and
// GET /api/users/me/avatar. Any signed-in caller; no admin rights needed. These static paths win over the
// admin-only /api/users/:id (the router prefers a static segment to a parameter).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@careplane/shared/common/http';
import {
  AVATAR_DEFAULT_SIZE,
  avatarQuerySchema,
  signInRequestSchema,
} from '@careplane/shared/users/account.contract';
import { userSchema, type User } from '@careplane/shared/users/users.contract';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { AppError, unauthorized } from '../../lib/errors.js';
import type { ResourceService } from '../../lib/resources/resource.js';
import { actionContext } from '../../lib/resources/routes.js';
import { requireCaller } from '../../plugins/auth.js';
import { avatarSvg, signIn, verifyIdToken, type IdTokenVerifier } from './account.service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export interface AccountRouteOptions {
  db: Database;
  service: ResourceService;
  verifier: IdTokenVerifier;
}

export async function accountRoutes(app: FastifyInstance, { db, service, verifier }: AccountRouteOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  /** The caller's own record; 404 until the first POST /api/auth created it. */
  const me = async (request: Parameters<typeof requireCaller>[0]) => {
    const caller = requireCaller(request);
    if (!caller.userId) {
      throw new AppError(404, 'No user record for this identity yet: sign in once with POST /api/auth');
    }
    return (await service.read(caller.userId, { relations: [] })) as User;
  };

  typed.post('/api/auth', {
    schema: {
      tags: ['account'],
      summary: "Sign in: create or update the caller's user from the identity token (returns the user)",
      description:
        'The Authorization header carries the access token and the body the id_token of the same sign-in; ' +
        'both must name the same subject. Roles, names and contact details are copied from the id_token.',
      body: signInRequestSchema,
      response: { 200: userSchema, ...errors },
    },
    handler: async (request) => {
      const caller = requireCaller(request);
      const claims = await verifyIdToken(verifier, request.body.idToken);
      if (claims.sub !== caller.subject) {
        throw unauthorized('The id token and the access token belong to different identities');
      }
      const { id } = await signIn(db, claims, actionContext(request));
      app.forgetCachedUser(caller.subject);
      return (await service.read(id, { relations: [] })) as User;
    },
  });

  typed.get('/api/users/me', {
    schema: {
      tags: ['account'],
      summary: 'The signed-in user (with localRoles)',
      response: { 200: userSchema, ...errors },
    },
    handler: async (request) => me(request),
  });

  typed.get('/api/users/me/avatar', {
    schema: {
      tags: ['account'],
      summary: "The signed-in user's avatar (SVG), width and height 16–512 pixels (default 128)",
      querystring: avatarQuerySchema,
      response: { 200: z.string().describe('image/svg+xml'), ...errors },
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
}
