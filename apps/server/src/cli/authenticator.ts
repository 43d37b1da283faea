// `careplane authenticator enroll|pending|approve|deny|scan`: the command-line twin of the authenticator app,
// on the same protocol module. Keys live in a store file (see store.ts).
import {
  AuthenticatorClient,
  AuthenticatorError,
  type AuthenticatorKey,
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
import {
  keyOf,
  pickIdentity,
  putIdentity,
  readStore,
  storableJwk,
  writeStore,
} from '@/lib/authenticator-store.js';

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

/**
 * A binding message as the user reads it off a screen and types it: case and spaces do not count, so "ab12"
 * is "AB 12".
 */
export const codeKey = (code: string) => code.replace(/\s+/g, '').toUpperCase();

/** The requests that show the code (a request without a binding message shows none). */
export const requestsWithCode = (requests: PendingRequest[], code: string) =>
  requests.filter(
    (request) => request.bindingMessage !== null && codeKey(request.bindingMessage) === codeKey(code),
  );

/** Who asks for what, in a few words: the client, or for a signature the document's title. */
export function whatAsks(request: PendingRequest): string {
  if (request.kind === 'login') return `Sign-in to ${request.clientName}`;
  if (isDocumentSignRequest(request)) {
    const title = typeof request.details.title === 'string' ? request.details.title : '?';
    return `Signature of the document "${title}" for ${request.clientName}`;
  }
  const action = typeof request.details.action === 'string' ? request.details.action : 'an action';
  return `Approval of ${action} for ${request.clientName}`;
}

const timeLeft = (request: PendingRequest, now: number) => {
  const seconds = Math.max(0, Math.round((Date.parse(request.expiresAt) - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')} left`;
};

/** One line per request in the server's order (newest first): its code, what asks, the time left. */
export function listRequests(requests: PendingRequest[], now = Date.now()): string[] {
  const code = (request: PendingRequest) => request.bindingMessage ?? '(no code)';
  const codeWidth = Math.max(...requests.map((request) => code(request).length));
  const askWidth = Math.max(...requests.map((request) => whatAsks(request).length));
  const lines = requests.map(
    (request) =>
      `  ${code(request).padEnd(codeWidth)}  ${whatAsks(request).padEnd(askWidth)}  ${timeLeft(request, now)}`,
  );
  if (requests.some((request) => request.bindingMessage === null)) {
    lines.push('  A request without a code can be answered only in the authenticator app.');
  }
  return lines;
}

const listingFailure = (error: unknown) => {
  throw protocolFailure(error, 'Listing pending requests');
};

/** Lists until `enough` holds or `waitSeconds` have passed; answers the last listing. */
async function pendingUntil(
  client: AuthenticatorClient,
  key: AuthenticatorKey,
  enough: (requests: PendingRequest[]) => boolean,
  waitSeconds: number,
  intervalMs: number,
): Promise<PendingRequest[]> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    const requests = await client.pending(key).catch(listingFailure);
    if (enough(requests) || Date.now() >= deadline) return requests;
    const delay = Math.max(0, Math.min(intervalMs, deadline - Date.now()));
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

export interface PendingOptions extends ClientOptions {
  store: string;
  username?: string | undefined;
}

/** Lists the identity's pending requests, newest first, with the code each shows. */
export async function pendingCommand(options: PendingOptions, io: CliIo): Promise<number> {
  const entry = pickIdentity(readStore(options.store), options.store, options.username);
  const client = clientFor(entry.issuer, options);
  const requests = await client.pending(await keyOf(entry)).catch(listingFailure);
  if (requests.length === 0) {
    io.out(`No request is waiting for ${entry.username} at ${entry.issuer}.`);
    return 0;
  }
  io.out(`Pending requests for ${entry.username}, newest first:`);
  for (const line of listRequests(requests)) io.out(line);
  return 0;
}

export interface ApproveOptions extends ClientOptions {
  store: string;
  username?: string | undefined;
  /** The binding message the screen that asks shows; without it, asked at a terminal (and refused elsewhere). */
  code?: string | undefined;
  /** Seconds to wait for a request (with that code). */
  wait: number;
  deny?: boolean;
}

/** How many codes a person may type before the command gives up. */
const ATTEMPTS = 3;

/**
 * Answers the one pending request that shows the code the user's screen shows (docs/decisions/030): given
 * with --code, or typed at the terminal after a listing. Never picks a request by itself, since a stranger can
 * start a request for anyone's identifier. Exit code 2 when nothing was answered.
 */
export async function approveCommand(options: ApproveOptions, io: CliIo): Promise<number> {
  const entry = pickIdentity(readStore(options.store), options.store, options.username);
  const client = clientFor(entry.issuer, options);
  const key = await keyOf(entry);
  const intervalMs = options.pollIntervalMs ?? 1000;
  const decision = options.deny ? 'deny' : 'approve';
  const verb = options.deny ? 'deny' : 'approve';
  const withCode = `careplane authenticator ${verb} --store ${options.store} --username ${entry.username} --code "<the code your screen shows>"`;

  const listTo = (write: (line: string) => void, requests: PendingRequest[], heading: string) => {
    if (requests.length === 0) return;
    write(heading);
    for (const line of listRequests(requests)) write(line);
  };
  const ambiguous = (code: string, requests: PendingRequest[]) => {
    io.err(`More than one pending request shows the code ${code}: nothing was answered.`);
    listTo(io.err, requests, 'Pending requests, newest first:');
    io.err('Start the sign-in or signature again to get a new code.');
    return 2;
  };

  const answer = async (request: PendingRequest, requests: PendingRequest[]) => {
    for (const line of describeRequest(request)) io.out(line);
    const result = await client.decide(key, request, decision).catch((error: unknown) => {
      throw protocolFailure(error, 'Answering the request');
    });
    io.out(result.status === 'approved' ? 'Approved.' : 'Denied.');
    const others = requests.filter((other) => other.id !== request.id);
    listTo(io.out, others, 'Still pending (not answered), newest first:');
    if (others.some((other) => other.kind === 'login')) {
      io.out(
        `If you did not start a sign-in above, someone else is trying to sign in as you: deny it with careplane authenticator deny --store ${options.store} --username ${entry.username} --code "<its code>"`,
      );
    }
    return 0;
  };

  if (options.code !== undefined) {
    const code = options.code.trim();
    if (!codeKey(code))
      throw new CliError('--code is empty: give the code your screen shows, e.g. --code "AB 12"');
    io.out(
      `Waiting up to ${options.wait} s for a request with the code ${code} for ${entry.username} at ${entry.issuer} ...`,
    );
    const requests = await pendingUntil(
      client,
      key,
      (listed) => requestsWithCode(listed, code).length > 0,
      options.wait,
      intervalMs,
    );
    const matches = requestsWithCode(requests, code);
    if (matches.length > 1) return ambiguous(code, requests);
    if (matches.length === 0) {
      io.err(
        `No request with the code ${code} for ${entry.username} came within ${options.wait} s: nothing was answered.`,
      );
      listTo(io.err, requests, 'Pending now, newest first:');
      return 2;
    }
    return answer(matches[0]!, requests);
  }

  if (!io.ask) {
    // Not at a terminal and no code: refuse, even for a single request, which may be a stranger's.
    const requests = await client.pending(key).catch(listingFailure);
    io.err(`Give the code your screen shows: nothing was answered. Run: ${withCode}`);
    if (requests.length === 0) io.err(`No request is waiting for ${entry.username} now.`);
    listTo(io.err, requests, `Pending requests for ${entry.username}, newest first:`);
    return 2;
  }

  let requests = await client.pending(key).catch(listingFailure);
  if (requests.length === 0) {
    io.out(`Waiting up to ${options.wait} s for a request for ${entry.username} at ${entry.issuer} ...`);
    requests = await pendingUntil(client, key, (listed) => listed.length > 0, options.wait, intervalMs);
    if (requests.length === 0) {
      io.err(`No request for ${entry.username} came within ${options.wait} s.`);
      return 2;
    }
  }
  for (let attempt = 1; ; attempt++) {
    listTo(io.out, requests, `Pending requests for ${entry.username}, newest first:`);
    const typed = await io.ask(`Type the code your screen shows to ${verb} it (Enter to cancel): `);
    if (typed === null || !codeKey(typed)) {
      io.err('Nothing was answered.');
      return 2;
    }
    // What is pending now: the request may have come after the listing, or gone.
    requests = await client.pending(key).catch(listingFailure);
    const matches = requestsWithCode(requests, typed);
    if (matches.length > 1) return ambiguous(typed.trim(), requests);
    if (matches.length === 1) return answer(matches[0]!, requests);
    io.err(`No pending request shows the code ${typed.trim()}.`);
    if (requests.length === 0 || attempt >= ATTEMPTS) {
      io.err('Nothing was answered.');
      return 2;
    }
  }
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
    io.out(
      claimed.bindingMessage
        ? `Approve it with: careplane authenticator approve --store <file> --username ${entry.username} --code "${claimed.bindingMessage}"`
        : 'It shows no code: answer it in the authenticator app.',
    );
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
