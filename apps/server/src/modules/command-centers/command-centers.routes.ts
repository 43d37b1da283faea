// /api/command-centers (the generic resource; the command-center scoped calls live beside it later).
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import { commandCentersResource } from './command-centers.resource.js';

export async function commandCentersModule(app: FastifyInstance, { db }: { db: Database }) {
  registerResourceRoutes(app, createResourceService(db, commandCentersResource));
}
