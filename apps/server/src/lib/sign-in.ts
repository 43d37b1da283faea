// Whether a sign-in still stands (decision 022): the grant its access token was issued under has not ended
// (a revoked refresh family, a logout, a blocked or deleted account), and its account is not blocked. The API's
// bearer check, the live event streams and the auth server's own bearer routes ask the same question.
import { serviceTexts, unauthorized } from './errors.js';

/** The caller's user record as a sign-in check needs it (undefined before the first sign-in). */
export interface CallerRecord {
  id: string;
  roles: string[];
  localRoles: string[];
  isBlocked: boolean;
}
export type FindCallerRecord = (subject: string) => Promise<CallerRecord | undefined>;

export interface SignInChecks {
  /**
   * Whether a grant still stands; absent when tokens come from an issuer whose grants this server cannot see.
   */
  isGrantActive?: ((grantId: string) => Promise<boolean>) | undefined;
  /** The subject's user record; absent where only the grant can be checked (the auth server's own routes). */
  findUser?: FindCallerRecord | undefined;
}

/** The subject's record once its sign-in is known to stand; a 401 naming why when it does not. */
export async function confirmSignIn(
  checks: SignInChecks,
  subject: string,
  grantId: unknown,
): Promise<CallerRecord | undefined> {
  if (typeof grantId === 'string' && checks.isGrantActive && !(await checks.isGrantActive(grantId))) {
    throw unauthorized(serviceTexts.signInEnded);
  }
  const user = await checks.findUser?.(subject);
  if (user?.isBlocked) throw unauthorized(serviceTexts.accountBlocked);
  return user;
}
