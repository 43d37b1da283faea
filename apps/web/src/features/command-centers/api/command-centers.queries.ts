// Command centers: the query-options factory.
import {
  commandCenterEndpoints,
  type CommandCenter,
} from '@careplane/shared/command-centers/command-centers.contract';
import { createResourceQueries } from '@/lib/resource-kit/queries.ts';

export const commandCenterQueries = createResourceQueries<CommandCenter>(
  'command-centers',
  commandCenterEndpoints,
);
