// The user's own account: the identity token a sign-in presents (verified, read into the user's fields) and
// the avatar drawn from the user's initials. Pure functions: the writes are in users.service.ts.
import { errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { globalRoles } from '@careplane/shared/common/enums';
import { splitUsername, usernameSchema } from '@careplane/shared/users/users.contract';
import { AppError, badRequest, serviceTexts, unauthorized } from '@/lib/errors.js';

export interface IdTokenVerifier {
  issuer: string;
  keys: JWTVerifyGetKey;
  audience?: string;
}

const text = (value: unknown, max: number) =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null;

/**
 * Verifies an id_token of the console: signed by the auth server's keys, for this issuer and the console,
 * unexpired. An access token (typ at+jwt) is not an id_token.
 */
export async function verifyIdToken(verifier: IdTokenVerifier, idToken: string): Promise<JWTPayload> {
  try {
    const { payload, protectedHeader } = await jwtVerify(idToken, verifier.keys, {
      issuer: verifier.issuer,
      audience: verifier.audience ?? CONSOLE_CLIENT_ID,
      algorithms: ['ES256'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (protectedHeader.typ && protectedHeader.typ.toLowerCase() !== 'jwt') {
      throw unauthorized(serviceTexts.notAnIdToken);
    }
    return payload;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof joseErrors.JOSEError) throw unauthorized(serviceTexts.invalidIdToken);
    throw error;
  }
}

/** The user record's fields as the identity token states them (decisions §3: roles copied, masterId = sub). */
export function userFieldsFromIdToken(claims: JWTPayload) {
  const parsed = usernameSchema.safeParse(claims.preferred_username);
  if (!parsed.success) {
    throw badRequest(serviceTexts.noPreferredUsername, [
      { path: 'idToken.preferred_username', message: 'Must look like name@domain' },
    ]);
  }
  const known = new Set<string>(globalRoles);
  const roles = Array.isArray(claims.roles)
    ? [...new Set(claims.roles.filter((role): role is string => typeof role === 'string' && known.has(role)))]
    : [];
  return {
    username: parsed.data,
    ...splitUsername(parsed.data),
    masterId: claims.sub as string,
    firstName: text(claims.given_name, 120),
    lastName: text(claims.family_name, 120),
    email: text(claims.email, 254),
    phoneNumber: text(claims.phone_number, 32),
    title: text(claims.title, 64),
    identityAssuranceLevel: text(claims.acr, 32),
    roles: roles.slice(0, 3),
  };
}

// --- Avatar -------------------------------------------------------------------------------------------

const xmlEscape = (value: string) => value.replace(/[<>&"']/g, (char) => `&#${char.codePointAt(0)};`);

/** Up to two letters: first and last name, else the username's first letter. */
export function initials(user: { firstName: string | null; lastName: string | null; username: string }) {
  const first = (value: string | null) => (value ? ([...value.trim()][0] ?? '') : '');
  const letters = first(user.firstName) + first(user.lastName);
  return (letters || first(user.username) || '?').toLocaleUpperCase();
}

/** A stable hue from the user id (FNV-1a), so the same user always gets the same colour. */
export function avatarHue(id: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 360;
}

export function avatarSvg(
  user: { id: string; firstName: string | null; lastName: string | null; username: string },
  width: number,
  height: number,
) {
  const hue = avatarHue(user.id);
  const label = xmlEscape(initials(user));
  const fontSize = Math.round(Math.min(width, height) * 0.42);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">` +
    `<rect width="${width}" height="${height}" fill="hsl(${hue}, 55%, 42%)"/>` +
    `<text x="50%" y="50%" dy=".35em" text-anchor="middle" fill="#ffffff" ` +
    `font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="${fontSize}" ` +
    `font-weight="600">${label}</text></svg>`
  );
}
