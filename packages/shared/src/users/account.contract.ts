// The signed-in user's own account: first sign-in (POST /api/auth), the profile (GET /api/users/me) and its
// avatar (GET /api/users/me/avatar), and the one-time enrollment answer of admin provisioning.
import { z } from 'zod';
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

/** PATCH /api/users/me/preferences: what the signed-in user chooses for themselves. */
export const accountPreferencesSchema = z.strictObject({
  /** null: follow the browser's languages again. */
  language: languageSchema.nullable(),
});
export type AccountPreferences = z.infer<typeof accountPreferencesSchema>;
