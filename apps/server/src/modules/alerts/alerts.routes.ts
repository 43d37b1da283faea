// /api/alerts.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import { alertsResource } from './alerts.resource.js';

export async function alertsModule(app: FastifyInstance, { db }: { db: Database }) {
  registerResourceRoutes(app, createResourceService(db, alertsResource));
}
