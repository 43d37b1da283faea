// Drizzle relation graph: what `relations=` can embed in answers. Many-to-many relations are not here: each
// link's declaration (defineLink, links.ts) makes both halves of its own.
import { relations } from 'drizzle-orm';
import { auditLog } from './audit.js';
import { deviceRunnerJobs, deviceStats, devices, workstations } from './devices.js';
import { alerts, iotDeviceData, iotDevices } from './iot.js';
import { commandCenters, serviceProviders } from './organisations.js';
import { documents, prescriptions } from './prescriptions.js';
import { patientProfiles, users } from './users.js';

export const usersRelations = relations(users, ({ one, many }) => ({
  patientProfile: one(patientProfiles, {
    fields: [users.patientProfileId],
    references: [patientProfiles.id],
  }),
  createdByUser: one(users, {
    fields: [users.createdByUserId],
    references: [users.id],
    relationName: 'userCreatedBy',
  }),
  assignedDevices: many(devices, { relationName: 'deviceAssignedUser' }),
  assignedIotDevices: many(iotDevices),
}));

export const patientProfilesRelations = relations(patientProfiles, ({ one }) => ({
  createdByUser: one(users, {
    fields: [patientProfiles.createdByUserId],
    references: [users.id],
  }),
  user: one(users, { fields: [patientProfiles.id], references: [users.patientProfileId] }),
}));

export const serviceProvidersRelations = relations(serviceProviders, ({ one }) => ({
  createdByUser: one(users, {
    fields: [serviceProviders.createdByUserId],
    references: [users.id],
  }),
}));

export const commandCentersRelations = relations(commandCenters, ({ one, many }) => ({
  devices: many(devices),
  createdByUser: one(users, { fields: [commandCenters.createdByUserId], references: [users.id] }),
}));

export const devicesRelations = relations(devices, ({ one, many }) => ({
  assignedUser: one(users, {
    fields: [devices.assignedUserId],
    references: [users.id],
    relationName: 'deviceAssignedUser',
  }),
  commandCenter: one(commandCenters, {
    fields: [devices.commandCenterId],
    references: [commandCenters.id],
  }),
  workstation: one(workstations, { fields: [devices.id], references: [workstations.deviceId] }),
  stats: many(deviceStats),
  jobs: many(deviceRunnerJobs),
  createdByUser: one(users, { fields: [devices.createdByUserId], references: [users.id] }),
}));

export const deviceStatsRelations = relations(deviceStats, ({ one }) => ({
  device: one(devices, { fields: [deviceStats.deviceId], references: [devices.id] }),
}));

export const workstationsRelations = relations(workstations, ({ one }) => ({
  device: one(devices, { fields: [workstations.deviceId], references: [devices.id] }),
  createdByUser: one(users, { fields: [workstations.createdByUserId], references: [users.id] }),
}));

export const deviceRunnerJobsRelations = relations(deviceRunnerJobs, ({ one }) => ({
  device: one(devices, { fields: [deviceRunnerJobs.deviceId], references: [devices.id] }),
  createdByUser: one(users, {
    fields: [deviceRunnerJobs.createdByUserId],
    references: [users.id],
  }),
}));

export const iotDevicesRelations = relations(iotDevices, ({ one }) => ({
  assignedUser: one(users, { fields: [iotDevices.assignedUserId], references: [users.id] }),
  createdByDevice: one(devices, {
    fields: [iotDevices.createdByDeviceId],
    references: [devices.id],
  }),
}));

export const iotDeviceDataRelations = relations(iotDeviceData, ({ one }) => ({
  iotDevice: one(iotDevices, { fields: [iotDeviceData.iotDeviceId], references: [iotDevices.id] }),
  createdByUser: one(users, { fields: [iotDeviceData.createdByUserId], references: [users.id] }),
}));

export const alertsRelations = relations(alerts, ({ one }) => ({
  iotDevice: one(iotDevices, { fields: [alerts.iotDeviceId], references: [iotDevices.id] }),
  user: one(users, { fields: [alerts.userId], references: [users.id], relationName: 'alertUser' }),
  closedByUser: one(users, {
    fields: [alerts.closedByUserId],
    references: [users.id],
    relationName: 'alertClosedBy',
  }),
  acknowledgedByUser: one(users, {
    fields: [alerts.acknowledgedByUserId],
    references: [users.id],
    relationName: 'alertAcknowledgedBy',
  }),
  createdByUser: one(users, {
    fields: [alerts.createdByUserId],
    references: [users.id],
    relationName: 'alertCreatedBy',
  }),
}));

export const documentsRelations = relations(documents, ({ one }) => ({
  createdByUser: one(users, { fields: [documents.createdByUserId], references: [users.id] }),
}));

const prescriptionUser = (column: typeof prescriptions.issuerId, relationName: string) => ({
  fields: [column] as [typeof column],
  references: [users.id] as [typeof users.id],
  relationName,
});

export const prescriptionsRelations = relations(prescriptions, ({ one }) => ({
  issuer: one(users, prescriptionUser(prescriptions.issuerId, 'prescriptionIssuer')),
  nurse: one(users, prescriptionUser(prescriptions.nurseId, 'prescriptionNurse')),
  shipperDriver: one(users, prescriptionUser(prescriptions.shipperDriverId, 'prescriptionDriver')),
  recipient: one(users, prescriptionUser(prescriptions.recipientId, 'prescriptionRecipient')),
  createdByUser: one(users, prescriptionUser(prescriptions.createdByUserId, 'prescriptionCreator')),
  supplier: one(serviceProviders, {
    fields: [prescriptions.supplierId],
    references: [serviceProviders.id],
    relationName: 'prescriptionSupplier',
  }),
  shipper: one(serviceProviders, {
    fields: [prescriptions.shipperId],
    references: [serviceProviders.id],
    relationName: 'prescriptionShipper',
  }),
  issuerReceipt: one(documents, {
    fields: [prescriptions.issuerReceiptId],
    references: [documents.id],
    relationName: 'issuerReceipt',
  }),
  pickupReceipt: one(documents, {
    fields: [prescriptions.pickupReceiptId],
    references: [documents.id],
    relationName: 'pickupReceipt',
  }),
}));

export const auditLogRelations = relations(auditLog, () => ({}));
