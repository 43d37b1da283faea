// The five routes of a generic resource, admin only (decisions §4), typed by the resource's contract.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  idParamsSchema,
  listQuerySchema,
  listResponseSchema,
  relationsQuerySchema,
} from '@careplane/shared/common/http';
import { requireAdmin } from '../../plugins/auth.js';
import type { ActionContext } from '../../modules/audit/audit.service.js';
import type { ResourceService } from './resource.js';

export const actionContext = (request: { caller: ActionContext['caller']; ip: string }) => ({
  caller: request.caller,
  ip: request.ip,
});

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export type ResourceRouteName = 'list' | 'read' | 'create' | 'update' | 'delete';

export interface ResourceRouteOptions {
  /** Routes a resource provides itself (or not at all), e.g. a create with its own body and answer. */
  omit?: readonly ResourceRouteName[];
}

export function registerResourceRoutes(
  app: FastifyInstance,
  service: ResourceService,
  options: ResourceRouteOptions = {},
) {
  const { definition } = service;
  const wanted = (name: ResourceRouteName) => !options.omit?.includes(name);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = [definition.name];
  const item = definition.schemas.item;
  const base = definition.path;

  if (wanted('list')) {
    typed.get(base, {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: `List ${definition.name}`,
        querystring: listQuerySchema,
        response: { 200: listResponseSchema(item), ...errors },
      },
      handler: async (request) => service.list(request.query),
    });
  }

  if (wanted('read')) {
    typed.get(`${base}/:id`, {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: `Read one of ${definition.name}`,
        params: idParamsSchema,
        querystring: relationsQuerySchema,
        response: { 200: item, ...errors },
      },
      handler: async (request) => service.read(request.params.id, request.query),
    });
  }

  if (wanted('create')) {
    typed.post(base, {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: `Create one of ${definition.name}`,
        body: definition.schemas.create,
        response: { 201: item, ...errors },
      },
      handler: async (request, reply) => {
        const created = await service.create(request.body as Record<string, unknown>, actionContext(request));
        return reply.status(201).send(created);
      },
    });
  }

  if (wanted('update')) {
    typed.patch(`${base}/:id`, {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: `Change some fields of one of ${definition.name}`,
        params: idParamsSchema,
        body: definition.schemas.update,
        response: { 200: item, ...errors },
      },
      handler: async (request) =>
        service.update(request.params.id, request.body as Record<string, unknown>, actionContext(request)),
    });
  }

  if (wanted('delete')) {
    typed.delete(`${base}/:id`, {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: `Delete one of ${definition.name}`,
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
      handler: async (request, reply) => {
        await service.remove(request.params.id, actionContext(request));
        return reply.status(204).send(null);
      },
    });
  }
}
