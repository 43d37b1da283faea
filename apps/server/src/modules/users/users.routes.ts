// /api/users and /api/patient-profiles (admin only), the caller's own account routes, and admin provisioning:
// creating a user provisions its sign-in identity and answers its enrollment code once; a user's phones are
// listed and a lost one revoked.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@careplane/shared/common/http';
import {
  enrollmentSchema,
  phoneListSchema,
  phoneParamsSchema,
  phoneSchema,
} from '@careplane/shared/users/account.contract';
import { userCreateSchema, userEndpoints, userSchema } from '@careplane/shared/users/users.contract';
import { requireAdmin } from '@/lib/caller.js';
import { actionContext, errorResponses } from '@/lib/http.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import type { IdTokenVerifier } from './account.service.js';
import { accountRoutes } from './account.routes.js';
import type { UsersService } from './users.service.js';

export interface UsersModuleOptions {
  service: UsersService;
  /** Verifies id tokens: the auth server's issuer and key set. */
  verifier: IdTokenVerifier;
}

export async function usersModule(app: FastifyInstance, { service, verifier }: UsersModuleOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  await accountRoutes(app, { service, verifier });
  registerResourceRoutes(app, service.users, { omit: ['create'] });
  registerResourceRoutes(app, service.patientProfiles);

  typed.post(userEndpoints.list, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: ['users'],
      summary: 'Create a user; provisions its sign-in identity and answers its enrollment code once',
      body: userCreateSchema,
      response: { 201: userSchema, ...errorResponses },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.createUser(request.body, actionContext(request))),
  });

  typed.post(`${userEndpoints.list}/:id/enrollment`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: ['users'],
      summary: "Issue a fresh one-time enrollment code for the user's sign-in identity",
      params: idParamsSchema,
      response: { 201: enrollmentSchema, ...errorResponses },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await service.issueEnrollment(request.params.id, actionContext(request))),
  });

  typed.get(`${userEndpoints.list}/:id/phones`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: ['users'],
      summary: "The phones enrolled for the user's sign-in, revoked ones included",
      params: idParamsSchema,
      response: { 200: phoneListSchema, ...errorResponses },
    },
    handler: async (request) => ({ items: await service.phones(request.params.id) }),
  });

  typed.post(`${userEndpoints.list}/:id/phones/:phoneId/revoke`, {
    onRequest: requireAdmin,
    config: { access: 'admin' },
    schema: {
      tags: ['users'],
      summary:
        "Revoke a lost or replaced phone: it approves and signs nothing more, and the user's sign-ins end",
      params: phoneParamsSchema,
      response: { 200: phoneSchema, ...errorResponses },
    },
    handler: async (request) =>
      service.revokePhone(request.params.id, request.params.phoneId, actionContext(request)),
  });
}
