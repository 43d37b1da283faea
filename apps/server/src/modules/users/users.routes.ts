// /api/users and /api/patient-profiles.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import { createResourceService } from '../../lib/resources/resource.js';
import { registerResourceRoutes } from '../../lib/resources/routes.js';
import { patientProfilesResource, usersResource } from './users.resource.js';

export async function usersModule(app: FastifyInstance, { db }: { db: Database }) {
  registerResourceRoutes(app, createResourceService(db, usersResource));
  registerResourceRoutes(app, createResourceService(db, patientProfilesResource));
}
