// The five routes of a generic resource, validated and serialised by the resource's contract schemas. Each
// checks who may call it before it reads or validates anything (the service's access rules; admins by
// default, decisions §4).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  csvExportQuerySchema,
  idParamsSchema,
  listQuerySchema,
  listResponseSchema,
  relationsQuerySchema,
  type CsvExportQuery,
  type ListQuery,
  type RelationsQuery,
} from '@careplane/shared/common/http';
import { pickLanguage } from '@careplane/shared/i18n/languages';
import type { Access } from '../access.js';
import { allow } from '../caller.js';
import { actionContext, errorResponses } from '../http.js';
import type { ResourceOperation, ResourceService } from './service.js';

export interface ResourceRouteOptions {
  /** Routes a resource provides itself (or not at all), e.g. a create with its own body and answer. */
  omit?: readonly ResourceOperation[];
  /** Who may call each operation (lib/access.ts), as the service's access rules decide it; admin by default. */
  access?: Partial<Record<ResourceOperation, Access>>;
}

// The schemas below have validated these parts before a handler runs; they only need naming here, since
// one generic function serves every resource's types.
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

export function registerResourceRoutes<Create extends object, Update extends object, Item>(
  app: FastifyInstance,
  service: ResourceService<Create, Update, Item>,
  options: ResourceRouteOptions = {},
) {
  const { definition, access } = service;
  const tags = [definition.name];
  const item = definition.schemas.item;
  const base = definition.path;
  const route = (
    operation: ResourceOperation,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    schema: Record<string, unknown>,
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) => {
    if (options.omit?.includes(operation)) return;
    app.route({
      method,
      url,
      onRequest: allow(access[operation]),
      config: { access: options.access?.[operation] ?? 'admin' },
      schema: { tags, ...schema },
      handler,
    });
  };

  route(
    'list',
    'GET',
    base,
    {
      summary: `List ${definition.name}`,
      querystring: listQuerySchema,
      response: { 200: listResponseSchema(item), ...errorResponses },
    },
    async (request) => service.listAnswer(request.query as ListQuery, request.caller),
  );

  if (definition.csv) {
    route(
      'list',
      'GET',
      `${base}/export.csv`,
      {
        summary: `Export the list of ${definition.name} as CSV (every matching record, the console's columns)`,
        querystring: csvExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.any().describe('text/csv'), ...errorResponses },
      },
      async (request, reply) => {
        // The file speaks the reader's language, as the console they export from does (decision 047).
        const language = pickLanguage(request.headers['accept-language']);
        const { fileName, lines } = service.exportCsv(
          request.query as CsvExportQuery,
          request.caller,
          language,
        );
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-language', language)
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'private, no-store')
          .send(Readable.from(lines));
      },
    );
  }

  route(
    'read',
    'GET',
    `${base}/:id`,
    {
      summary: `Read one of ${definition.name}`,
      params: idParamsSchema,
      querystring: relationsQuerySchema,
      response: { 200: item, ...errorResponses },
    },
    async (request) => service.read(idOf(request), request.query as RelationsQuery, request.caller),
  );

  route(
    'create',
    'POST',
    base,
    {
      summary: `Create one of ${definition.name}`,
      body: definition.schemas.create,
      response: { 201: item, ...errorResponses },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body as Create, actionContext(request))),
  );

  route(
    'update',
    'PATCH',
    `${base}/:id`,
    {
      summary: `Change some fields of one of ${definition.name}`,
      params: idParamsSchema,
      body: definition.schemas.update,
      response: { 200: item, ...errorResponses },
    },
    async (request) => service.update(idOf(request), request.body as Update, actionContext(request)),
  );

  route(
    'delete',
    'DELETE',
    `${base}/:id`,
    {
      summary: `Delete one of ${definition.name}`,
      params: idParamsSchema,
      response: { 204: z.null(), ...errorResponses },
    },
    async (request, reply) => {
      await service.remove(idOf(request), actionContext(request));
      return reply.status(204).send(null);
    },
  );
}
