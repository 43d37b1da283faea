// IoT devices and IoT data records (readings) as generic resources: tables, contract schemas, list specs.
import { z } from 'zod';
import {
  iotDataListSpec,
  iotDataRecordSchema,
  iotDataSubmissionSchema,
  iotDeviceCreateSchema,
  iotDeviceListSpec,
  iotDeviceSchema,
  iotDeviceUpdateSchema,
  iotEndpoints,
} from '@careplane/shared/iot/iot.contract';
import { iotDeviceColumns } from '@careplane/shared/iot/iot.columns';
import { iotDeviceData, iotDevices } from '@/db/schema/index.js';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column } from '@/lib/resources/filters.js';

export const iotDevicesResource = defineResource({
  name: 'iot-devices',
  label: 'IoT device',
  entity: 'iotDevices',
  table: iotDevices,
  idColumn: iotDevices.id,
  path: iotEndpoints.devices,
  schemas: { create: iotDeviceCreateSchema, update: iotDeviceUpdateSchema, item: iotDeviceSchema },
  references: { assignedUser: 'assignedUserId' },
  csv: { columns: iotDeviceColumns },
  list: {
    spec: iotDeviceListSpec,
    query: bindListSpec(iotDeviceListSpec, {
      idColumn: iotDevices.id,
      filters: {
        id: column(iotDevices.id),
        hardwareIdentifier: column(iotDevices.hardwareIdentifier),
        deviceIdentifier: column(iotDevices.deviceIdentifier),
        model: column(iotDevices.model),
        connectionType: column(iotDevices.connectionType),
        supportedDataTypes: column(iotDevices.supportedDataTypes),
        trustLevel: column(iotDevices.trustLevel),
        allowMultipleDeviceRelationships: column(iotDevices.allowMultipleDeviceRelationships),
        'assignedUser.id': column(iotDevices.assignedUserId),
        'createdByDevice.id': column(iotDevices.createdByDeviceId),
      },
      search: {
        id: iotDevices.id,
        hardwareIdentifier: iotDevices.hardwareIdentifier,
        deviceIdentifier: iotDevices.deviceIdentifier,
        model: iotDevices.model,
      },
      sort: {
        createdAt: iotDevices.createdAt,
        updatedAt: iotDevices.updatedAt,
        hardwareIdentifier: iotDevices.hardwareIdentifier,
        model: iotDevices.model,
        connectionType: iotDevices.connectionType,
        trustLevel: iotDevices.trustLevel,
      },
    }),
  },
});

/** Readings are created by submissions (iot.service) and never changed; list, read and delete are generic. */
export const iotDataResource = defineResource({
  name: 'iot-device-data',
  label: 'Reading',
  entity: 'iotDeviceData',
  table: iotDeviceData,
  idColumn: iotDeviceData.id,
  path: iotEndpoints.data,
  schemas: { create: iotDataSubmissionSchema, update: z.strictObject({}), item: iotDataRecordSchema },
  list: {
    spec: iotDataListSpec,
    query: bindListSpec(iotDataListSpec, {
      idColumn: iotDeviceData.id,
      time: iotDeviceData.timestamp,
      filters: {
        id: column(iotDeviceData.id),
        'iotDevice.id': column(iotDeviceData.iotDeviceId),
        dataType: column(iotDeviceData.dataType),
        'createdByUser.id': column(iotDeviceData.createdByUserId),
      },
      search: { id: iotDeviceData.id },
      sort: {
        timestamp: iotDeviceData.timestamp,
        createdAt: iotDeviceData.createdAt,
        dataType: iotDeviceData.dataType,
      },
    }),
  },
});
