// SQL of the service-providers module beyond the generic engine.
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client.js';
import { prescriptions, serviceProviders } from '@/db/schema/index.js';

/** Whether the provider is the supplier and/or the shipper of any prescription (only the roles asked for). */
export async function findPrescriptionRoles(
  executor: Executor,
  providerId: string,
  roles: { supplier: boolean; shipper: boolean },
) {
  const conditions = [
    ...(roles.supplier ? [eq(prescriptions.supplierId, providerId)] : []),
    ...(roles.shipper ? [eq(prescriptions.shipperId, providerId)] : []),
  ];
  if (conditions.length === 0) return { supplier: false, shipper: false };
  const [used] = await executor
    .select({
      supplier: sql<boolean>`coalesce(bool_or(${prescriptions.supplierId} = ${providerId}), false)`,
      shipper: sql<boolean>`coalesce(bool_or(${prescriptions.shipperId} = ${providerId}), false)`,
    })
    .from(prescriptions)
    .where(or(...conditions));
  return { supplier: Boolean(used?.supplier), shipper: Boolean(used?.shipper) };
}

/** Type and state of the given providers, share-locked until the transaction ends. */
export async function lockProviders(executor: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return executor
    .select({ id: serviceProviders.id, type: serviceProviders.type, isEnabled: serviceProviders.isEnabled })
    .from(serviceProviders)
    .where(inArray(serviceProviders.id, [...ids]))
    .for('share');
}
