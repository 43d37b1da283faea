// /api/service-providers.
import type { FastifyInstance } from 'fastify';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { Store } from '../../lib/store.js';
import { createServiceProvidersService } from './service-providers.service.js';

export async function serviceProvidersModule(app: FastifyInstance, { store }: { store: Store }) {
  const service = createServiceProvidersService(store);
  registerResourceRoutes(app, service.serviceProviders);
}
