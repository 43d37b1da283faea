// /api/command-centers (the generic resource; the command-center scoped calls live beside it).
import type { FastifyInstance } from 'fastify';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import type { Store } from '../../lib/store.js';
import { createCommandCentersService } from './command-centers.service.js';

export async function commandCentersModule(app: FastifyInstance, { store }: { store: Store }) {
  const service = createCommandCentersService(store);
  registerResourceRoutes(app, service.commandCenters);
}
