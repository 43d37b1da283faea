// Prescriptions: the generic resource and the rules of who may fill each role (decisions §5, record 012).
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  lockedPrescriptionFields,
  pickupAssignmentIssues,
  shipperProviderTypes,
  supplierProviderTypes,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import type { Executor } from '../../db/client.js';
import { AppError, badRequest, type ErrorIssue } from '../../lib/errors.js';
import type { Row } from '../../lib/resources/repository.js';
import { createResourceService, type WritePlan } from '../../lib/resources/service.js';
import type { Store } from '../../lib/store.js';
import { lockServiceProviders } from '../service-providers/service-providers.service.js';
import { missingUserIds } from '../users/users.service.js';
import { prescriptionReferences, prescriptionsResource } from './prescriptions.resource.js';

type ReferenceField = keyof typeof prescriptionReferences;

const userFields = ['issuer', 'nurse', 'shipperDriver', 'recipient'] as const;
const providerRoles = {
  supplier: supplierProviderTypes as readonly string[],
  shipper: shipperProviderTypes as readonly string[],
} as const;

const columnToField = new Map<string, string>(
  Object.entries(prescriptionReferences).map(([field, column]) => [column, field]),
);

/** The body fields of a write plan, by their public names. */
const planFields = (plan: WritePlan) =>
  Object.keys(plan.values).map((column) => columnToField.get(column) ?? column);

/** The id a plan sets for a reference, when it sets one (null clears it). */
const plannedId = (plan: WritePlan, field: ReferenceField) => {
  const value = plan.values[prescriptionReferences[field]];
  return typeof value === 'string' ? value : undefined;
};

async function referenceIssues(executor: Executor, plan: WritePlan): Promise<ErrorIssue[]> {
  const issues: ErrorIssue[] = [];

  const missingUsers = new Set(
    await missingUserIds(
      executor,
      userFields.flatMap((field) => plannedId(plan, field) ?? []),
    ),
  );
  for (const field of userFields) {
    const id = plannedId(plan, field);
    if (id && missingUsers.has(id)) issues.push({ path: `body.${field}`, message: 'No user with this id' });
  }

  const providerIds = (['supplier', 'shipper'] as const).flatMap((field) => plannedId(plan, field) ?? []);
  const providers = new Map((await lockServiceProviders(executor, providerIds)).map((row) => [row.id, row]));
  for (const field of ['supplier', 'shipper'] as const) {
    const id = plannedId(plan, field);
    if (!id) continue;
    const provider = providers.get(id);
    const allowed = providerRoles[field];
    if (!provider) {
      issues.push({ path: `body.${field}`, message: 'No service provider with this id' });
    } else if (!allowed.includes(provider.type)) {
      issues.push({
        path: `body.${field}`,
        message: `Must be a service provider of type ${allowed.join(' or ')}, not ${provider.type}`,
      });
    } else if (!provider.isEnabled) {
      issues.push({ path: `body.${field}`, message: 'The service provider is disabled' });
    }
  }
  return issues;
}

/** Fields that decide who picks the prescription up; a change to any of them re-checks the whole rule. */
const pickupFields = ['pickupByNurse', 'nurseId', 'shipperId'];

export async function checkPrescriptionWrite(
  executor: Executor,
  plan: WritePlan,
  existing: Row | null,
): Promise<void> {
  if (existing) {
    const status = existing.status as PrescriptionStatus;
    const locked = lockedPrescriptionFields(status, planFields(plan));
    if (locked.length) {
      throw new AppError(
        409,
        `A prescription in status ${status} can no longer change ${locked.join(', ')}`,
        locked.map((field) => ({ path: `body.${field}`, message: `Fixed in status ${status}` })),
      );
    }
  }

  const issues = await referenceIssues(executor, plan);
  if (!existing || pickupFields.some((column) => Object.hasOwn(plan.values, column))) {
    const merged = { ...existing, ...plan.values };
    for (const issue of pickupAssignmentIssues({
      pickupByNurse: merged.pickupByNurse as boolean | null | undefined,
      nurse: merged.nurseId as string | null | undefined,
      shipper: merged.shipperId as string | null | undefined,
    })) {
      issues.push({ path: `body.${issue.path}`, message: issue.message });
    }
  }
  if (issues.length) throw badRequest('Invalid prescription', issues);
}

export function createPrescriptionsService(store: Store) {
  const prescriptions = createResourceService(store, prescriptionsResource, {
    check: (executor, plan, _mode, existing) => checkPrescriptionWrite(executor, plan, existing),
  });
  return { prescriptions };
}

export type PrescriptionsService = ReturnType<typeof createPrescriptionsService>;
