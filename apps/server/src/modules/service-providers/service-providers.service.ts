// Service providers: the generic resource and its rule (the engine checks that employees exist, as it does
// for every link list). A provider's type decides which prescription roles it may fill, so a type change that
// would leave an existing prescription with a supplier that is no pharmacy (or a shipper that is no courier
// or nurse provider) is refused.
import type { ServiceProviderType } from '@careplane/shared/common/enums';
import {
  shipperProviderTypes,
  supplierProviderTypes,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import type { Executor } from '@/db/client.js';
import { AppError, serviceTexts } from '@/lib/errors.js';
import { createResourceService } from '@/lib/resources/service.js';
import type { Store } from '@/lib/store.js';
import { findPrescriptionRoles, lockProviders } from './service-providers.repository.js';
import { serviceProvidersResource } from './service-providers.resource.js';

async function checkTypeChange(executor: Executor, providerId: string, type: ServiceProviderType) {
  const roles = {
    supplier: !(supplierProviderTypes as readonly string[]).includes(type),
    shipper: !(shipperProviderTypes as readonly string[]).includes(type),
  };
  const used = await findPrescriptionRoles(executor, providerId, roles);
  const refused = (['supplier', 'shipper'] as const).filter((role) => roles[role] && used[role]);
  if (refused.length) {
    throw new AppError(409, serviceTexts.providerStillUsed(refused), [
      { path: 'body.type', message: `A ${type} provider cannot be a prescription ${refused.join(' or ')}` },
    ]);
  }
}

/**
 * Type and state of the given providers, held (share-locked) until the caller's transaction ends, so a
 * concurrent type change cannot slip in between a check and the write it allows.
 */
export const lockServiceProviders = (executor: Executor, ids: readonly string[]) =>
  lockProviders(executor, ids);

export function createServiceProvidersService(store: Store) {
  const serviceProviders = createResourceService(store, serviceProvidersResource, {
    check: async (executor, plan, mode, existing) => {
      const type = plan.values.type as ServiceProviderType | undefined;
      if (mode === 'update' && existing && type && type !== existing.type) {
        await checkTypeChange(executor, existing.id as string, type);
      }
    },
  });
  return { serviceProviders };
}

export type ServiceProvidersService = ReturnType<typeof createServiceProvidersService>;
