// /api/prescriptions (the generic resource; the status actions join it later).
import type { FastifyInstance } from 'fastify';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { Store } from '../../lib/store.js';
import { createPrescriptionsService } from './prescriptions.service.js';

export async function prescriptionsModule(app: FastifyInstance, { store }: { store: Store }) {
  const service = createPrescriptionsService(store);
  registerResourceRoutes(app, service.prescriptions);
}
