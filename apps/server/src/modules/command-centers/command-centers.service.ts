// Command centers: the generic resource and its rule (assigned users must exist).
import type { Store } from '../../lib/store.js';
import { badRequest } from '../../lib/errors.js';
import { createResourceService } from '../../lib/resources/service.js';
import { missingUserIds } from '../users/users.service.js';
import { commandCentersResource } from './command-centers.resource.js';

export function createCommandCentersService(store: Store) {
  const commandCenters = createResourceService(store, commandCentersResource, {
    check: async (executor, plan) => {
      const missing = await missingUserIds(executor, plan.links.assignedUsers ?? []);
      if (missing.length) {
        throw badRequest('Unknown assigned users', [
          { path: 'body.assignedUsers', message: `No user with id ${missing.join(', ')}` },
        ]);
      }
    },
  });
  return { commandCenters };
}

export type CommandCentersService = ReturnType<typeof createCommandCentersService>;
