// The signed-in user's own account: first sign-in (POST /api/auth), the profile (GET /api/users/me) and its
// avatar (GET /api/users/me/avatar), the one-time enrollment answer of admin provisioning, and the phones a
// person has enrolled, which an admin revokes when one is lost.
import { z } from 'zod';
import { isoDateTime } from '../common/primitives.ts';
import { languageSchema } from '../i18n/languages.ts';

/** POST /api/auth: the id_token of the sign-in, next to the access token in the Authorization header. */
export const signInRequestSchema = z.strictObject({
  idToken: z
    .string()
    .min(1)
    .max(8192)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, { message: 'Must be a signed JWT' }),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const AVATAR_MIN_SIZE = 16;
export const AVATAR_MAX_SIZE = 512;
export const AVATAR_DEFAULT_SIZE = 128;

const avatarSize = z.coerce
  .number({ message: 'Must be a number' })
  .int({ message: 'Must be a whole number' })
  .min(AVATAR_MIN_SIZE, { message: `Must be at least ${AVATAR_MIN_SIZE}` })
  .max(AVATAR_MAX_SIZE, { message: `Must be at most ${AVATAR_MAX_SIZE}` });

/** GET /api/users/me/avatar: pixels; one given sets both, none gives the default. */
export const avatarQuerySchema = z.strictObject({
  width: avatarSize.optional(),
  height: avatarSize.optional(),
});
export type AvatarQuery = z.infer<typeof avatarQuerySchema>;

/** A one-time enrollment code for the authenticator: shown in the answer that created it, never again. */
export const enrollmentSchema = z.object({
  code: z.string(),
  /** Opens the authenticator's enrollment with the code filled in. */
  link: z.string(),
  expiresAt: z.string(),
});
export type Enrollment = z.infer<typeof enrollmentSchema>;

/**
 * A phone enrolled for a person's sign-in: its authenticator key, named by the key's RFC 7638 thumbprint. A
 * revoked phone approves and signs nothing more; it stays listed, with when it was revoked (decision 099).
 */
export const phoneSchema = z.object({
  id: z.string(),
  /** What the phone called itself when it enrolled; null when it said nothing. */
  label: z.string().nullable(),
  enrolledAt: isoDateTime,
  lastUsedAt: isoDateTime.nullable(),
  revokedAt: isoDateTime.nullable(),
});
export type Phone = z.infer<typeof phoneSchema>;

/** GET /api/users/:id/phones: active phones first, each group newest first. */
export const phoneListSchema = z.object({ items: z.array(phoneSchema) });
export type PhoneList = z.infer<typeof phoneListSchema>;

/** A phone in a path: its key's thumbprint, base64url, at most 64 characters. */
export const ownPhoneParamsSchema = z.object({
  phoneId: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'Must be a phone id (base64url)' }),
});

/** A user's phone, for an admin. */
export const phoneParamsSchema = ownPhoneParamsSchema.extend({ id: z.uuid({ message: 'Must be a uuid' }) });

/** PATCH /api/users/me/preferences: what the signed-in user chooses for themselves. */
export const accountPreferencesSchema = z.strictObject({
  /** null: follow the browser's languages again. */
  language: languageSchema.nullable(),
});
export type AccountPreferences = z.infer<typeof accountPreferencesSchema>;
