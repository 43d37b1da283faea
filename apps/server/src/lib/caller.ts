// Who is calling: the signed-in person behind a request, and the rules that decide what they may do.
// The auth plugin fills `request.caller`; routes and services read it through these helpers.
import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import { isAdmin } from '@careplane/shared/auth/roles';
import { forbidden, serviceTexts, type Text, unauthorized } from './errors.js';

export interface Caller {
  subject: string;
  roles: string[];
  claims: JWTPayload;
  /** The application user found by `masterId` = subject; null before the first sign-in. */
  userId: string | null;
  localRoles: string[];
  isAdmin: boolean;
}

/** A client device calling with its device token (decisions §7): it reaches only its own records. */
export interface DeviceCaller {
  id: string;
  title: string;
  /**
   * The hash of the token the request presented: a long poll asks with it, when it hands out a job, whether
   * the token is still the device's.
   */
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A signed-in person (bearer access token); null for devices and public routes. */
    caller: Caller | null;
    /** A client device (device token); null for people and public routes. */
    device: DeviceCaller | null;
  }
  interface FastifyContextConfig {
    /** Routes that answer without a token (health, OpenAPI, public documents). */
    public?: boolean;
  }
}

/** The admin area's rule (decisions §4), the same one the console's guard reads. */
export const callerIsAdmin = (roles: readonly string[], localRoles: readonly string[]) =>
  isAdmin({ roles, localRoles });

/** The signed-in person; a device token is refused here like no token at all. */
export function requireCaller(request: Pick<FastifyRequest, 'caller'>): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}

/** The calling device, for the routes a device uses; anything else is refused. */
export function requireDevice(request: Pick<FastifyRequest, 'device'>): DeviceCaller {
  if (!request.device) throw unauthorized(serviceTexts.deviceTokenRequired);
  return request.device;
}

/** Decides whether a caller may perform an operation at all (records they may not see are a separate rule). */
export type AccessRule = (caller: Caller) => boolean;

export const accessRules = {
  /** The admin area: first global role admin or master, or first local role application_admin. */
  admin: (caller: Caller) => caller.isAdmin,
  /** Anyone signed in. */
  signedIn: () => true,
} satisfies Record<string, AccessRule>;

/**
 * A hook that refuses callers the rule does not admit with 403. Registered as `onRequest` (after the token
 * check, before the body is even parsed), so a caller
 * who may not use a route learns nothing about what it accepts.
 */
export const allow =
  (rule: AccessRule, message: Text = serviceTexts.notAllowed) =>
  async (request: FastifyRequest) => {
    if (!rule(requireCaller(request))) throw forbidden(message);
  };

/** onRequest hook of the admin area. */
export const requireAdmin = allow(accessRules.admin, serviceTexts.adminRightsRequired);
