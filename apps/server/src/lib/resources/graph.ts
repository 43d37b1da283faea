// The embeddable relation graph: for each entity, its write-only columns and the relations `relations=` may name.
// Keys are drizzle relation names from db/schema/relations.ts; many-to-many relations come from the declared
// links (links.ts), whose `through` unwraps the join row.
import { getTableColumns } from 'drizzle-orm';
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
  /** Only these columns of the related record are embedded (a person's card: decision 062); default all. */
  shown?: readonly string[];
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

/**
 * What a record tells about the people it names (a prescription's doctor, patient, nurse, driver): who they
 * are and how to reach them. Their identity numbers, birth dates, addresses, roles and the rest of the
 * account stay with the user record, which only admins and the person read (decisions §4, decision 062).
 */
export const PERSON_CARD = [
  'id',
  'username',
  'title',
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
] as const;
const person = (key: string): RelationSpec => ({ ...one(key, 'users'), shown: PERSON_CARD });

/**
 * Who did something to a record (acknowledged or closed an alert, sent it): their name and no more, so that a
 * care team reads which colleague it was without being handed a way to reach an admin (decision 104).
 */
export const PERSON_NAME = ['id', 'title', 'firstName', 'lastName'] as const;
const named = (key: string): RelationSpec => ({ ...one(key, 'users'), shown: PERSON_NAME });

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
    // Whose reading it is, for the care team's scope only (decision 109).
    hidden: ['userId'],
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
      closedByUser: named('closedByUser'),
      acknowledgedByUser: named('acknowledgedByUser'),
      createdByUser: named('createdByUser'),
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
      issuer: person('issuer'),
      issuerReceipt: one('issuerReceipt', 'documents'),
      nurse: person('nurse'),
      supplier: one('supplier', 'serviceProviders'),
      shipper: one('shipper', 'serviceProviders'),
      shipperDriver: person('shipperDriver'),
      pickupReceipt: one('pickupReceipt', 'documents'),
      recipient: person('recipient'),
      createdByUser: person('createdByUser'),
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

const hiddenThrough = new WeakMap<RelationSpec, ReadonlySet<string>>();

/**
 * The columns an answer leaves out of `entity`'s records: its hidden ones, and when they are reached through
 * `relation`, every column that relation does not show.
 */
export function hiddenColumnsOf(entity: EntityName, relation?: RelationSpec): ReadonlySet<string> {
  const shown = relation?.shown;
  if (!relation || !shown) return new Set(entitySpec(entity).hidden);
  let hidden = hiddenThrough.get(relation);
  if (!hidden) {
    const columns = Object.keys(getTableColumns(schema[entity]));
    const unknown = shown.filter((column) => !columns.includes(column));
    if (unknown.length) throw new Error(`${entity} has no columns ${unknown.join(', ')} to show`);
    hidden = new Set([...entitySpec(entity).hidden, ...columns.filter((column) => !shown.includes(column))]);
    hiddenThrough.set(relation, hidden);
  }
  return hidden;
}
