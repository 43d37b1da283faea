// The embeddable relation graph: for each entity, its write-only columns and the relations `relations=` may name.
// Keys are drizzle relation names from db/schema/relations.ts; `through` unwraps a link table.

export type EntityName =
  | 'users'
  | 'patientProfiles'
  | 'serviceProviders'
  | 'commandCenters'
  | 'devices'
  | 'deviceStats'
  | 'workstations'
  | 'deviceRunnerJobs'
  | 'iotDevices'
  | 'iotDeviceData'
  | 'alerts'
  | 'documents'
  | 'prescriptions';

export interface RelationSpec {
  /** drizzle relation on the entity */
  key: string;
  /** entity of the related record(s) */
  target: EntityName;
  /** for many-to-many: the relation on the link row that leads to the target */
  through?: string;
  many: boolean;
  /** For a many relation: newest first by this column, at most `limit` (default MAX_EMBEDDED). */
  newestFirstBy?: string;
  limit?: number;
}

/** No embedded list grows without bound: a many relation answers at most this many records. */
export const MAX_EMBEDDED = 100;

export interface EntitySpec {
  /** Columns never selected for an answer. */
  hidden: readonly string[];
  relations: Readonly<Record<string, RelationSpec>>;
}

const one = (key: string, target: EntityName): RelationSpec => ({ key, target, many: false });
const many = (key: string, target: EntityName, through?: string): RelationSpec => ({
  key,
  target,
  many: true,
  ...(through ? { through } : {}),
});

export const entityGraph = {
  users: {
    hidden: [],
    relations: {
      patientProfile: one('patientProfile', 'patientProfiles'),
      employers: many('employerLinks', 'serviceProviders', 'serviceProvider'),
      assignedNurses: many('nurseLinks', 'users', 'nurse'),
      assignedIotDevices: many('assignedIotDevices', 'iotDevices'),
      assignedToWorkstations: many('workstationLinks', 'workstations', 'workstation'),
      assignedDevices: many('assignedDevices', 'devices'),
      commandCenters: many('commandCenterLinks', 'commandCenters', 'commandCenter'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  patientProfiles: {
    hidden: [],
    relations: {
      createdByUser: one('createdByUser', 'users'),
      user: one('user', 'users'),
    },
  },
  serviceProviders: {
    hidden: [],
    relations: {
      employees: many('employeeLinks', 'users', 'user'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  commandCenters: {
    hidden: [],
    relations: {
      assignedUsers: many('userLinks', 'users', 'user'),
      devices: many('devices', 'devices'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  devices: {
    hidden: ['tokenHash'],
    relations: {
      workstation: one('workstation', 'workstations'),
      assignedUser: one('assignedUser', 'users'),
      iotDevices: many('iotDeviceLinks', 'iotDevices', 'iotDevice'),
      commandCenter: one('commandCenter', 'commandCenters'),
      // The latest stats only: a device reports every 15 minutes.
      stats: { ...many('stats', 'deviceStats'), newestFirstBy: 'timestamp', limit: 5 },
      createdByUser: one('createdByUser', 'users'),
    },
  },
  deviceStats: {
    hidden: [],
    relations: { device: one('device', 'devices') },
  },
  workstations: {
    hidden: [],
    relations: {
      device: one('device', 'devices'),
      assignedPatients: many('patientLinks', 'users', 'user'),
      assignedWorkstations: many('deviceLinks', 'devices', 'device'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  deviceRunnerJobs: {
    hidden: [],
    relations: {
      device: one('device', 'devices'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  iotDevices: {
    hidden: ['connectionSecret'],
    relations: {
      devices: many('deviceLinks', 'devices', 'device'),
      assignedUser: one('assignedUser', 'users'),
      createdByDevice: one('createdByDevice', 'devices'),
    },
  },
  iotDeviceData: {
    hidden: [],
    relations: {
      iotDevice: one('iotDevice', 'iotDevices'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  alerts: {
    hidden: [],
    relations: {
      iotDevice: one('iotDevice', 'iotDevices'),
      user: one('user', 'users'),
      closedByUser: one('closedByUser', 'users'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  documents: {
    hidden: [],
    relations: {
      signingParties: many('signingPartyLinks', 'users', 'user'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  prescriptions: {
    hidden: [],
    relations: {
      issuer: one('issuer', 'users'),
      issuerReceipt: one('issuerReceipt', 'documents'),
      nurse: one('nurse', 'users'),
      supplier: one('supplier', 'serviceProviders'),
      shipper: one('shipper', 'serviceProviders'),
      shipperDriver: one('shipperDriver', 'users'),
      pickupReceipt: one('pickupReceipt', 'documents'),
      recipient: one('recipient', 'users'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
} satisfies Record<EntityName, EntitySpec>;

export const entitySpec = (name: EntityName): EntitySpec => entityGraph[name];
