// IoT devices and IoT data records as generic resources: filters, sorts, relations and write rules.
import { desc } from 'drizzle-orm';
import { z } from 'zod';
import { connectionTypes, iotDataTypes, trustLevels } from '@careplane/shared/common/enums';
import {
  connectionSecretIssues,
  iotDataRecordSchema,
  iotDataSubmissionSchema,
  iotDeviceCreateSchema,
  iotDeviceSchema,
  iotDeviceUpdateSchema,
} from '@careplane/shared/iot/iot.contract';
import { iotDeviceData, iotDeviceDevices, iotDevices } from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import { columnFilter, kinds, linkFilter } from '../../lib/resources/filters.js';
import type { ResourceDefinition } from '../../lib/resources/resource.js';
import { countDeviceLinks } from './iot.repository.js';
import { hashConnectionSecret } from './iot.secrets.js';

export const IOT_DEVICES_RESOURCE_NAME = 'iot-devices';
export const IOT_DATA_RESOURCE_NAME = 'iot-device-data';

export const iotDevicesResource: ResourceDefinition = {
  name: IOT_DEVICES_RESOURCE_NAME,
  entity: 'iotDevices',
  table: iotDevices,
  idColumn: iotDevices.id,
  path: '/api/iot-devices',
  schemas: { create: iotDeviceCreateSchema, update: iotDeviceUpdateSchema, item: iotDeviceSchema },
  references: { assignedUser: 'assignedUserId' },
  links: {
    devices: {
      table: iotDeviceDevices,
      ownerKey: 'iotDeviceId',
      ownerColumn: iotDeviceDevices.iotDeviceId,
      targetKey: 'deviceId',
    },
  },
  // The secret is hashed before the transaction; the plain text never reaches the database.
  derive: async (body) =>
    typeof body.connectionSecret === 'string'
      ? { connectionSecret: await hashConnectionSecret(body.connectionSecret) }
      : {},
  check: async (executor, plan, _mode, existing) => {
    const { values, links } = plan;
    // Spec §5 on the record as it will be stored: the body's fields over the stored ones.
    const trustLevel = (Object.hasOwn(values, 'trustLevel') ? values.trustLevel : existing?.trustLevel) as
      string | null | undefined;
    const hasSecret = Boolean(
      Object.hasOwn(values, 'connectionSecret') ? values.connectionSecret : existing?.connectionSecret,
    );
    const issues = connectionSecretIssues(trustLevel, hasSecret);
    if (issues.length) throw badRequest('Invalid trust level and connection secret', issues);

    const allowMultiple = (values.allowMultipleDeviceRelationships ??
      existing?.allowMultipleDeviceRelationships ??
      false) as boolean;
    if (allowMultiple) return;
    const linked =
      links.devices?.length ?? (existing ? await countDeviceLinks(executor, existing.id as string) : 0);
    if (linked > 1) {
      throw badRequest('This IoT device may be linked to one device only', [
        { path: 'devices', message: 'At most one device unless allowMultipleDeviceRelationships is true' },
      ]);
    }
  },
  query: {
    idColumn: iotDevices.id,
    defaultSort: [desc(iotDevices.createdAt)],
    filters: {
      id: columnFilter(iotDevices.id, kinds.uuid),
      hardwareIdentifier: columnFilter(iotDevices.hardwareIdentifier, kinds.text),
      deviceIdentifier: columnFilter(iotDevices.deviceIdentifier, kinds.text),
      model: columnFilter(iotDevices.model, kinds.text),
      connectionType: columnFilter(iotDevices.connectionType, kinds.enum(connectionTypes)),
      supportedDataTypes: columnFilter(iotDevices.supportedDataTypes, kinds.enum(iotDataTypes), {
        list: true,
      }),
      trustLevel: columnFilter(iotDevices.trustLevel, kinds.enum(trustLevels)),
      allowMultipleDeviceRelationships: columnFilter(
        iotDevices.allowMultipleDeviceRelationships,
        kinds.boolean,
      ),
      'assignedUser.id': columnFilter(iotDevices.assignedUserId, kinds.uuid),
      'createdByDevice.id': columnFilter(iotDevices.createdByDeviceId, kinds.uuid),
      'devices.id': linkFilter(
        iotDeviceDevices,
        iotDeviceDevices.iotDeviceId,
        iotDeviceDevices.deviceId,
        iotDevices.id,
      ),
    },
    like: {
      id: iotDevices.id,
      hardwareIdentifier: iotDevices.hardwareIdentifier,
      deviceIdentifier: iotDevices.deviceIdentifier,
      model: iotDevices.model,
    },
    sorts: {
      createdAt: iotDevices.createdAt,
      updatedAt: iotDevices.updatedAt,
      hardwareIdentifier: iotDevices.hardwareIdentifier,
      model: iotDevices.model,
      connectionType: iotDevices.connectionType,
      trustLevel: iotDevices.trustLevel,
    },
  },
};

/** Readings are created by submissions (iot.service) and never changed; list, read and delete are generic. */
export const iotDataResource: ResourceDefinition = {
  name: IOT_DATA_RESOURCE_NAME,
  entity: 'iotDeviceData',
  table: iotDeviceData,
  idColumn: iotDeviceData.id,
  path: '/api/iot-devices/data',
  schemas: { create: iotDataSubmissionSchema, update: z.strictObject({}), item: iotDataRecordSchema },
  query: {
    idColumn: iotDeviceData.id,
    timeColumn: iotDeviceData.timestamp,
    defaultSort: [desc(iotDeviceData.timestamp)],
    filters: {
      id: columnFilter(iotDeviceData.id, kinds.uuid),
      'iotDevice.id': columnFilter(iotDeviceData.iotDeviceId, kinds.uuid),
      dataType: columnFilter(iotDeviceData.dataType, kinds.enum(iotDataTypes)),
      'createdByUser.id': columnFilter(iotDeviceData.createdByUserId, kinds.uuid),
    },
    like: { id: iotDeviceData.id },
    sorts: {
      timestamp: iotDeviceData.timestamp,
      createdAt: iotDeviceData.createdAt,
      dataType: iotDeviceData.dataType,
    },
  },
};
