// Service providers: the query-options factory.
import {
  serviceProviderEndpoints,
  type ServiceProvider,
} from '@careplane/shared/service-providers/service-providers.contract';
import { createResourceQueries } from '@/lib/resource-kit/queries.ts';

export const serviceProviderQueries = createResourceQueries<ServiceProvider>(
  'service-providers',
  serviceProviderEndpoints,
);
