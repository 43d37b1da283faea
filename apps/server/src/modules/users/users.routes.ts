// /api/users and /api/patient-profiles (admin only), the caller's own account routes, and admin provisioning:
// creating a user provisions its sign-in identity and answers its enrollment code once.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema } from '@careplane/shared/common/http';
import { enrollmentSchema } from '@careplane/shared/users/account.contract';
import { userCreateSchema, userSchema, type User } from '@careplane/shared/users/users.contract';
import type { IdentityService } from '../../auth-server/identities.js';
import type { Database } from '../../db/client.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { actionContext, registerResourceRoutes } from '../../lib/resources/routes.js';
import { requireAdmin } from '../../plugins/auth.js';
import type { IdTokenVerifier } from './account.service.js';
import { createProvisioning } from './provisioning.js';
import { patientProfilesResource, usersResource } from './users.resource.js';
import { accountRoutes } from './users.me.routes.js';

export interface UsersModuleOptions {
  db: Database;
  /** The auth server's identities (in this process or, on the same database, another one's). */
  identities: IdentityService;
  /** Verifies id tokens: the auth server's issuer and key set. */
  verifier: IdTokenVerifier;
}

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export async function usersModule(app: FastifyInstance, { db, identities, verifier }: UsersModuleOptions) {
  const service = createResourceService(db, usersResource);
  const provisioning = createProvisioning(db, identities, service);
  const typed = app.withTypeProvider<ZodTypeProvider>();

  await accountRoutes(app, { db, service, verifier });
  registerResourceRoutes(app, service, { omit: ['create'] });
  registerResourceRoutes(app, createResourceService(db, patientProfilesResource));

  typed.post('/api/users', {
    preHandler: requireAdmin,
    schema: {
      tags: ['users'],
      summary: 'Create a user; provisions its sign-in identity and answers its enrollment code once',
      body: userCreateSchema,
      response: { 201: userSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send((await provisioning.createUser(request.body, actionContext(request))) as User),
  });

  typed.post('/api/users/:id/enrollment', {
    preHandler: requireAdmin,
    schema: {
      tags: ['users'],
      summary: "Issue a fresh one-time enrollment code for the user's sign-in identity",
      params: idParamsSchema,
      response: { 201: enrollmentSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await provisioning.issueEnrollment(request.params.id, actionContext(request))),
  });
}
