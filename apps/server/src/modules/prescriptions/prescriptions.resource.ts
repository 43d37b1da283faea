// Prescriptions as a generic resource: filters, sorts, relations, and the checks on who may fill each role.
import { desc, inArray, sql } from 'drizzle-orm';
import { prescriptionStatuses, type PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  lockedPrescriptionFields,
  pickupAssignmentIssues,
  prescriptionSchema,
  prescriptionSubmissionSchema,
  prescriptionUpdateSchema,
  shipperProviderTypes,
  supplierProviderTypes,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import type { Executor } from '../../db/client.js';
import { prescriptions, serviceProviders, users } from '../../db/schema/index.js';
import { AppError, badRequest, type ErrorIssue } from '../../lib/errors.js';
import { columnFilter, kinds } from '../../lib/resources/filters.js';
import type { ResourceDefinition, WritePlan } from '../../lib/resources/resource.js';

type Row = Record<string, unknown>;

/** Body fields naming a related record, and their columns. */
const references = {
  issuer: 'issuerId',
  nurse: 'nurseId',
  supplier: 'supplierId',
  shipper: 'shipperId',
  shipperDriver: 'shipperDriverId',
  recipient: 'recipientId',
} as const;
type ReferenceField = keyof typeof references;

const userFields = ['issuer', 'nurse', 'shipperDriver', 'recipient'] as const;
const providerRoles = {
  supplier: supplierProviderTypes as readonly string[],
  shipper: shipperProviderTypes as readonly string[],
} as const;

const columnToField = new Map<string, string>(
  Object.entries(references).map(([field, column]) => [column, field]),
);

/** The body fields of a write plan, by their public names. */
const planFields = (plan: WritePlan) =>
  Object.keys(plan.values).map((column) => columnToField.get(column) ?? column);

/** The id a plan sets for a reference, when it sets one (null clears it). */
const plannedId = (plan: WritePlan, field: ReferenceField) => {
  const value = plan.values[references[field]];
  return typeof value === 'string' ? value : undefined;
};

async function referenceIssues(executor: Executor, plan: WritePlan): Promise<ErrorIssue[]> {
  const issues: ErrorIssue[] = [];

  const userIds = userFields.flatMap((field) => plannedId(plan, field) ?? []);
  const foundUsers = userIds.length
    ? await executor.select({ id: users.id }).from(users).where(inArray(users.id, userIds))
    : [];
  const knownUsers = new Set(foundUsers.map((row) => row.id));
  for (const field of userFields) {
    const id = plannedId(plan, field);
    if (id && !knownUsers.has(id)) issues.push({ path: `body.${field}`, message: 'No user with this id' });
  }

  const providerIds = (['supplier', 'shipper'] as const).flatMap((field) => plannedId(plan, field) ?? []);
  const foundProviders = providerIds.length
    ? await executor
        .select({
          id: serviceProviders.id,
          type: serviceProviders.type,
          isEnabled: serviceProviders.isEnabled,
        })
        .from(serviceProviders)
        .where(inArray(serviceProviders.id, providerIds))
        // Held until the write commits, so a concurrent type change cannot slip in between.
        .for('share')
    : [];
  const providers = new Map(foundProviders.map((row) => [row.id, row]));
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

const contentNames = sql`jsonb_path_query_array(${prescriptions.content}, '$[*].name')`;

export const prescriptionsResource: ResourceDefinition = {
  name: 'prescriptions',
  entity: 'prescriptions',
  table: prescriptions,
  idColumn: prescriptions.id,
  path: '/api/prescriptions',
  schemas: {
    create: prescriptionSubmissionSchema,
    update: prescriptionUpdateSchema,
    item: prescriptionSchema,
  },
  references,
  createdByColumn: 'createdByUserId',
  check: (executor, plan, _mode, existing) => checkPrescriptionWrite(executor, plan, existing),
  query: {
    idColumn: prescriptions.id,
    defaultSort: [desc(prescriptions.createdAt)],
    filters: {
      id: columnFilter(prescriptions.id, kinds.uuid),
      status: columnFilter(prescriptions.status, kinds.enum(prescriptionStatuses)),
      pickupByNurse: columnFilter(prescriptions.pickupByNurse, kinds.boolean),
      'issuer.id': columnFilter(prescriptions.issuerId, kinds.uuid),
      'issuerReceipt.id': columnFilter(prescriptions.issuerReceiptId, kinds.uuid),
      'nurse.id': columnFilter(prescriptions.nurseId, kinds.uuid),
      'supplier.id': columnFilter(prescriptions.supplierId, kinds.uuid),
      'shipper.id': columnFilter(prescriptions.shipperId, kinds.uuid),
      'shipperDriver.id': columnFilter(prescriptions.shipperDriverId, kinds.uuid),
      'pickupReceipt.id': columnFilter(prescriptions.pickupReceiptId, kinds.uuid),
      'recipient.id': columnFilter(prescriptions.recipientId, kinds.uuid),
      'createdByUser.id': columnFilter(prescriptions.createdByUserId, kinds.uuid),
    },
    like: {
      id: prescriptions.id,
      'content.name': contentNames,
      'pickupAddress.city': sql`${prescriptions.pickupAddress} ->> 'city'`,
      'deliveryAddress.city': sql`${prescriptions.deliveryAddress} ->> 'city'`,
    },
    sorts: {
      createdAt: prescriptions.createdAt,
      updatedAt: prescriptions.updatedAt,
      status: prescriptions.status,
    },
  },
};
