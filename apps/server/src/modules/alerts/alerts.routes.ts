// /api/alerts.
import type { FastifyInstance } from 'fastify';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { Store } from '../../lib/store.js';
import { createAlertsService } from './alerts.service.js';

export async function alertsModule(app: FastifyInstance, { store }: { store: Store }) {
  const service = createAlertsService(store);
  registerResourceRoutes(app, service.alerts);
}
