// /api/service-providers.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import { serviceProvidersResource } from './service-providers.resource.js';

export async function serviceProvidersModule(app: FastifyInstance, { db }: { db: Database }) {
  registerResourceRoutes(app, createResourceService(db, serviceProvidersResource));
}
