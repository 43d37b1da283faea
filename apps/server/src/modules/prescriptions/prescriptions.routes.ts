// /api/prescriptions (the generic resource; the status actions join it later).
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import { prescriptionsResource } from './prescriptions.resource.js';

export async function prescriptionsModule(app: FastifyInstance, { db }: { db: Database }) {
  registerResourceRoutes(app, createResourceService(db, prescriptionsResource));
}
