// Who may call a route, declared beside the route as `config: { access }` (resource routes: the `access`
// option of registerResourceRoutes). The route's own hook or service enforces the rule; the declaration is
// what the stress layer's role × operation matrix checks that rule against (docs/decisions/041), and every
// /api route carries one.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { serviceTexts, unauthorized } from './errors.js';

/** Who may call a route at all. Which records they then see is the service's rule (404 for the others). */
export type Access =
  /** No token needed (health, OpenAPI, public verification, the event stream's own ticket). */
  | 'public'
  /** Any signed-in person; a device token or none is a 401. */
  | 'signedIn'
  /** Any signed-in person, but the answer depends on their part in the record (404 or 403 when they have none). */
  | 'participant'
  /** The admin area (decisions §4); other people get 403. */
  | 'admin'
  /** Admins and a command center's care team assigned to one (supervisor, nurse, doctor); others 403. */
  | 'careTeam'
  /** Admins and doctors. */
  | 'doctor'
  /** A client device with its device token; people get 401. */
  | 'device'
  /** A client device, or an admin. */
  | 'deviceOrAdmin'
  /** Prometheus with the metrics token when one is configured, else admins. */
  | 'metrics';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (lib/access.ts). */
    access?: Access;
  }
}

/** The callers the matrix plays: the roles of decisions §4 and §5, a device, and nobody. */
export const matrixRoles = [
  'admin',
  'supervisor',
  'doctor',
  'pharmacist',
  'nurse',
  'courier',
  'caregiver',
  'patient',
  'device',
  'anonymous',
] as const;
export type MatrixRole = (typeof matrixRoles)[number];

/**
 * What a caller of a role should get: `allowed` (neither 401 nor 403), `denied` (403, or 404 where the
 * records are the rule), `unauthenticated` (401), or `depends` (anything but 401: the record decides).
 */
export type Outcome = 'allowed' | 'denied' | 'unauthenticated' | 'depends';

export function expectedOutcome(access: Access, role: MatrixRole): Outcome {
  if (access === 'public') return 'allowed';
  if (role === 'anonymous') return 'unauthenticated';
  if (role === 'device')
    return access === 'device' || access === 'deviceOrAdmin' ? 'allowed' : 'unauthenticated';
  if (access === 'device') return 'unauthenticated';
  switch (access) {
    case 'signedIn':
      return 'allowed';
    case 'participant':
      return role === 'admin' ? 'allowed' : 'depends';
    case 'admin':
    case 'deviceOrAdmin':
    case 'metrics':
      return role === 'admin' ? 'allowed' : 'denied';
    case 'careTeam':
      // The matrix's supervisor is assigned to a command center; its nurse and doctor are not.
      return role === 'admin' || role === 'supervisor' ? 'allowed' : 'denied';
    case 'doctor':
      return role === 'admin' || role === 'doctor' ? 'allowed' : 'denied';
  }
}

/** A registered route and what it declares (undefined: nothing). */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after recordRouteAccess, with its declared access (HEAD routes left out). */
    routeAccess: readonly DeclaredRoute[];
  }
}

/** Records each route as it is registered, for the matrix and for anyone asking which routes declare nothing. */
export function recordRouteAccess(app: FastifyInstance) {
  const table: DeclaredRoute[] = [];
  app.decorate('routeAccess', table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      table.push({ method, url: route.url, access: route.config?.access });
    }
  });
}

/**
 * A device's own routes (`access: 'device'`) refuse a caller without a device token (401) as soon as the request
 * is known, before its body is read or checked: a person's token, or none, is told nothing of what the route
 * would take (a malformed report answered 400 to them before). The handlers still ask for their device.
 */
export function refuseNonDevicesFirst(app: FastifyInstance) {
  const deviceOnly: onRequestHookHandler = (request, _reply, done) => {
    if (request.device) done();
    else done(unauthorized(serviceTexts.deviceTokenRequired));
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.access !== 'device') return;
    route.onRequest = [...[route.onRequest ?? []].flat(), deviceOnly];
  });
}
