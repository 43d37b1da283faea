// Live events (decisions record 027): server-sent events that tell the console which records changed, after
// the change committed, so its screens refetch what they show. An EventSource cannot send a bearer token, so
// the console first asks for a short-lived ticket (with its token) and opens the stream with it.
import { z } from 'zod';
import type { resourceNames } from '../common/list-spec.ts';

/** The resources whose changes are told live; other changes (sign-in artifacts, documents) never are. */
export const liveResources = [
  'devices',
  'device-stats',
  'device-jobs',
  'workstations',
  'iot-devices',
  'iot-device-data',
  'alerts',
  'users',
  'patient-profiles',
  'command-centers',
  'service-providers',
  'prescriptions',
] as const satisfies readonly (typeof resourceNames)[number][];
export type LiveResource = (typeof liveResources)[number];

/** `POST /api/events/ticket`: what opens the stream, for a minute, at any server process. */
export const eventTicketSchema = z.object({
  ticket: z.string(),
  /** Milliseconds since the epoch; after it the ticket opens nothing (an open stream stays open). */
  expiresAt: z.number().int(),
});
export type EventTicket = z.infer<typeof eventTicketSchema>;

export const eventStreamQuerySchema = z.object({
  ticket: z.string().min(1).max(2000),
  /** The id of the last event seen, for a new EventSource (which cannot send `Last-Event-ID` itself). */
  lastEventId: z.string().max(200).optional(),
});
export type EventStreamQuery = z.infer<typeof eventStreamQuerySchema>;

/** The data of a `change` event: which record changed and how. */
export const liveChangeSchema = z.object({
  resource: z.enum(liveResources),
  /** `create`, `update`, `delete` or a domain action. */
  action: z.string(),
  /** null for a batch (readings). */
  recordId: z.string().nullable(),
  /** Milliseconds since the epoch when the change was made. */
  at: z.number(),
});
export type LiveChange = z.infer<typeof liveChangeSchema>;

/**
 * Event names on the stream: `change` (data: a LiveChange), `resync` (events may have been missed: refetch
 * everything shown) and `ready` (the stream is open; data: the id of the last event, to resume from).
 */
export const liveEventNames = { change: 'change', resync: 'resync', ready: 'ready' } as const;

export const eventEndpoints = {
  ticket: '/api/events/ticket',
  stream: '/api/events',
} as const;
