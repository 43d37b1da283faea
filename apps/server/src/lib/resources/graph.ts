// The embeddable relation graph: for each entity, its write-only columns and the relations `relations=` may name.
// Keys are drizzle relation names from db/schema/relations.ts; many-to-many relations come from the declared
// links (links.ts), whose `through` unwraps the join row.
import * as schema from '@/db/schema/index.js';
import { declaredLinks } from '@/db/schema/links.js';
import { linkListsOf } from './links.js';

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
const many = (key: string, target: EntityName): RelationSpec => ({ key, target, many: true });

/** Each entity's own relations: those through a foreign key of its table or of the related one. */
const ownGraph = {
  users: {
    hidden: [],
    relations: {
      patientProfile: one('patientProfile', 'patientProfiles'),
      assignedIotDevices: many('assignedIotDevices', 'iotDevices'),
      assignedDevices: many('assignedDevices', 'devices'),
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
      createdByUser: one('createdByUser', 'users'),
    },
  },
  commandCenters: {
    hidden: [],
    relations: {
      devices: many('devices', 'devices'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  devices: {
    hidden: ['tokenHash'],
    relations: {
      workstation: one('workstation', 'workstations'),
      assignedUser: one('assignedUser', 'users'),
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
      acknowledgedByUser: one('acknowledgedByUser', 'users'),
      createdByUser: one('createdByUser', 'users'),
    },
  },
  documents: {
    hidden: [],
    relations: {
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

const isEntity = (name: string): name is EntityName => Object.hasOwn(ownGraph, name);

/** The own relations of every entity, and the lists of its declared links beside them. */
function withLinkLists(): Record<EntityName, EntitySpec> {
  const graph = {} as Record<EntityName, EntitySpec>;
  for (const [name, spec] of Object.entries(ownGraph) as [EntityName, EntitySpec][]) {
    const relations = { ...spec.relations };
    for (const list of Object.values(linkListsOf(schema[name]))) {
      const target = list.target.entity;
      if (!isEntity(target))
        throw new Error(`${name}.${list.name} lists ${target}, which is not in the graph`);
      if (Object.hasOwn(relations, list.name))
        throw new Error(`${name} has two relations named ${list.name}`);
      relations[list.name] = { key: list.rows, target, through: list.through, many: true };
    }
    graph[name] = { hidden: spec.hidden, relations };
  }
  return graph;
}

// Built once the links are declared; a link declared later (by a test) builds it again.
let built: { links: number; graph: Record<EntityName, EntitySpec> } | undefined;

export function entitySpec(name: EntityName): EntitySpec {
  const links = declaredLinks().length;
  if (built?.links !== links) built = { links, graph: withLinkLists() };
  return built.graph[name];
}
