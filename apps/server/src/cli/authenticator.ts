// `careplane authenticator enroll|approve|scan`: the command-line twin of the authenticator app, on the same
// protocol module. Keys live in a store file (see store.ts).
import {
  AuthenticatorClient,
  AuthenticatorError,
  exportPrivateJwk,
  generateAuthenticatorKey,
  isDocumentSignRequest,
  parseEnrollmentInput,
  parseQrLink,
  SignedAttributesError,
  type FetchLike,
  type PendingRequest,
} from '@careplane/shared/authenticator/protocol';
import { shortSha256 } from '@careplane/shared/common/formats';
import { CliError, type CliIo } from './io.js';
import { keyOf, pickIdentity, putIdentity, readStore, storableJwk, writeStore } from './store.js';

export interface ClientOptions {
  /** Replaces fetch (the demo enrolls in-process). */
  fetch?: FetchLike;
  /** How often approve and scan poll for pending requests. */
  pollIntervalMs?: number;
}

const clientFor = (issuer: string, options: ClientOptions) =>
  new AuthenticatorClient({ issuer, ...(options.fetch ? { fetch: options.fetch } : {}) });

const protocolFailure = (error: unknown, doing: string) =>
  error instanceof AuthenticatorError
    ? new CliError(`${doing} failed: ${error.message} (HTTP ${error.status})`)
    : error instanceof SignedAttributesError
      ? new CliError(`${doing} refused: this is not a document signature to make (${error.message})`)
      : error;

export interface EnrollOptions extends ClientOptions {
  store: string;
  /** The enrollment code, or the enrollment link (which also names the issuer). */
  input: string;
  /** The issuer when only a code is given. */
  issuer?: string | undefined;
  label?: string | undefined;
}

export async function enrollCommand(options: EnrollOptions, io: CliIo) {
  const parsed = parseEnrollmentInput(options.input);
  const issuer = (parsed.issuer ?? options.issuer)?.replace(/\/$/, '');
  if (!issuer) throw new CliError('Give an enrollment link, or a code with --issuer <auth server issuer>');
  const store = readStore(options.store);
  // Extractable: the store keeps the private key as a JWK.
  const keyPair = await generateAuthenticatorKey(true);
  const client = clientFor(issuer, options);
  const result = await client
    .enroll(parsed.code, keyPair, options.label ?? 'careplane CLI')
    .catch((error: unknown) => {
      throw protocolFailure(error, 'Enrollment');
    });
  const entry = {
    issuer: result.issuer.replace(/\/$/, ''),
    username: result.username,
    keyId: result.keyId,
    privateJwk: storableJwk(await exportPrivateJwk(keyPair.privateKey)),
    firstName: result.firstName,
    lastName: result.lastName,
    enrolledAt: new Date().toISOString(),
  };
  writeStore(options.store, putIdentity(store, entry));
  io.out(`Enrolled ${result.username} (${result.firstName} ${result.lastName}) at ${entry.issuer}`);
  io.out(`Key ${result.keyId} stored in ${options.store}`);
  return entry;
}

/** What the user is asked to approve, as the authenticator app shows it. */
export function describeRequest(request: PendingRequest): string[] {
  const lines = [
    request.kind === 'login'
      ? `Sign-in request from ${request.clientName} (${request.clientId})`
      : `Authorization request from ${request.clientName} (${request.clientId})`,
    `  Binding message: ${request.bindingMessage ?? '(none)'}`,
  ];
  const details = request.details;
  for (const name of ['description', 'action', 'resource', 'digest', 'scope']) {
    const value = details[name];
    if (typeof value === 'string' && value)
      lines.push(`  ${name[0]!.toUpperCase()}${name.slice(1)}: ${value}`);
  }
  if (isDocumentSignRequest(request)) {
    const text = (name: string) => (typeof details[name] === 'string' ? details[name] : '?');
    lines.push(`  Document: ${text('title')}`);
    lines.push(
      `  File SHA-256: ${shortSha256(text('documentSha256'))} (compare with the console; full: ${text('documentSha256')})`,
    );
    lines.push(`  Signing time: ${text('signingTime')}`);
  }
  lines.push(`  Expires: ${request.expiresAt}`);
  return lines;
}

export interface ApproveOptions extends ClientOptions {
  store: string;
  username?: string | undefined;
  /** Seconds to wait for a request. */
  wait: number;
  deny?: boolean;
}

/** Answers the identity's next pending request; exit code 2 when none came within the wait. */
export async function approveCommand(options: ApproveOptions, io: CliIo): Promise<number> {
  const entry = pickIdentity(readStore(options.store), options.store, options.username);
  const client = clientFor(entry.issuer, options);
  const key = await keyOf(entry);
  io.out(`Waiting up to ${options.wait} s for a request for ${entry.username} at ${entry.issuer} ...`);
  const request = await client
    .waitForPending(key, { timeoutMs: options.wait * 1000, intervalMs: options.pollIntervalMs ?? 1000 })
    .catch((error: unknown) => {
      throw protocolFailure(error, 'Listing pending requests');
    });
  if (!request) {
    io.err(`No request for ${entry.username} came within ${options.wait} s.`);
    return 2;
  }
  for (const line of describeRequest(request)) io.out(line);
  const decision = options.deny ? 'deny' : 'approve';
  const answer = await client.decide(key, request, decision).catch((error: unknown) => {
    throw protocolFailure(error, 'Answering the request');
  });
  io.out(answer.status === 'approved' ? 'Approved.' : 'Denied.');
  return 0;
}

export interface ScanOptions extends ClientOptions {
  store: string;
  username: string;
  /** The QR code's link (cbUrl). */
  link: string;
  approve?: boolean;
}

/** Claims a QR sign-in session for the identity; with approve, also approves the sign-in it starts. */
export async function scanCommand(options: ScanOptions, io: CliIo): Promise<number> {
  const entry = pickIdentity(readStore(options.store), options.store, options.username);
  const linked = parseQrLink(options.link);
  if (linked.issuer && linked.issuer.replace(/\/$/, '') !== entry.issuer) {
    throw new CliError(
      `This code is for ${linked.issuer}, but ${entry.username} is enrolled at ${entry.issuer}`,
    );
  }
  const client = clientFor(entry.issuer, options);
  const key = await keyOf(entry);
  const claimed = await client.claimQr(key, options.link).catch((error: unknown) => {
    throw protocolFailure(error, 'Claiming the sign-in');
  });
  io.out(`Claimed the sign-in for ${entry.username} (client ${claimed.clientId}).`);
  if (claimed.bindingMessage) io.out(`  Binding message: ${claimed.bindingMessage}`);
  if (!options.approve) {
    io.out('Approve it with: careplane authenticator approve --store <file> --username ' + entry.username);
    return 0;
  }
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pending = await client.pending(key);
    const request = pending.find((candidate) => candidate.id === claimed.requestId);
    if (request) {
      for (const line of describeRequest(request)) io.out(line);
      const answer = await client.approve(key, request).catch((error: unknown) => {
        throw protocolFailure(error, 'Approving the sign-in');
      });
      io.out(answer.status === 'approved' ? 'Approved.' : 'Denied.');
      return 0;
    }
    if (Date.now() > deadline) {
      io.err('The claimed sign-in request did not appear among the pending requests.');
      return 2;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 500));
  }
}
