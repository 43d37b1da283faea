// /api/service-providers.
import type { FastifyInstance } from 'fastify';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import type { ServiceProvidersService } from './service-providers.service.js';

export async function serviceProvidersModule(
  app: FastifyInstance,
  { service }: { service: ServiceProvidersService },
) {
  registerResourceRoutes(app, service.serviceProviders);
}
