// `careplane identity create`: an operator creates a sign-in identity in the auth server's tables and gets its
// one-time enrollment code and link. Opens the database like the server (DATABASE_URL, or DATA_DIR).
import { ZodError } from 'zod';
import { IdentityService, identityInputSchema } from '@/auth-server/identities.js';
import { authServerSettings } from '@/auth-server/index.js';
import type { AppConfig } from '@/config.js';
import { openDatabase, type DatabaseHandle } from '@/db/client.js';
import { EmbeddedDatabaseBusy, lockEmbeddedDatabase } from '@/db/embedded-lock.js';
import { AppError } from '@/lib/errors.js';
import { CliError, type CliIo } from './io.js';

export interface IdentityCreateOptions {
  username: string;
  firstName: string;
  lastName: string;
  email?: string | undefined;
  phoneNumber?: string | undefined;
  title?: string | undefined;
  assuranceLevel?: string | undefined;
  roles?: string[] | undefined;
}

/** Opens the server's database for a command (the embedded one only when no server holds it). */
export async function withDatabase<T>(
  config: AppConfig,
  purpose: string,
  work: (database: DatabaseHandle) => Promise<T>,
): Promise<T> {
  let lock: { release: () => void } | undefined;
  if (!config.databaseUrl) {
    try {
      lock = lockEmbeddedDatabase(config.dataDir, purpose);
    } catch (error) {
      if (error instanceof EmbeddedDatabaseBusy) throw new CliError(error.message);
      throw error;
    }
  }
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 2,
    });
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

export async function identityCreateCommand(
  options: IdentityCreateOptions,
  io: CliIo,
  target: { config: AppConfig; database?: DatabaseHandle },
) {
  const input = identityInputSchema.safeParse({
    username: options.username,
    firstName: options.firstName,
    lastName: options.lastName,
    ...(options.email ? { email: options.email } : {}),
    ...(options.phoneNumber ? { phoneNumber: options.phoneNumber } : {}),
    ...(options.title ? { title: options.title } : {}),
    ...(options.assuranceLevel ? { assuranceLevel: options.assuranceLevel } : {}),
    ...(options.roles?.length ? { roles: options.roles } : {}),
  });
  if (!input.success) {
    const lines = input.error.issues.map(
      (issue) => `  --${flagName(issue.path.join('.'))}: ${issue.message}`,
    );
    throw new CliError(`Invalid identity:\n${lines.join('\n')}`);
  }
  const work = async (database: DatabaseHandle) => {
    const identities = new IdentityService(database.db, authServerSettings(target.config));
    try {
      const identity = await identities.create(input.data);
      const enrollment = await identities.issueEnrollmentCode(identity.id);
      io.out(`Created identity ${identity.username} (${identity.firstName} ${identity.lastName})`);
      io.out(`  Subject: ${identity.id}`);
      io.out(`  Roles: ${identity.roles.join(', ')}`);
      io.out('');
      io.out('Enrollment code (shown once, single use, expires ' + enrollment.expiresAt.toISOString() + '):');
      io.out(`  ${enrollment.code}`);
      io.out('Enrollment link (open on the phone, or pass to `careplane authenticator enroll`):');
      io.out(`  ${enrollment.link}`);
      return { identity, enrollment };
    } catch (error) {
      if (error instanceof AppError) throw new CliError(error.message);
      if (error instanceof ZodError) throw new CliError(error.message);
      throw error;
    }
  };
  return target.database
    ? work(target.database)
    : withDatabase(target.config, 'careplane identity create', work);
}

const flagName = (field: string) => field.replace(/[A-Z]/g, (char) => `-${char.toLowerCase()}`);
