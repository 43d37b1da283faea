// Prescriptions: the generic resource (participants see theirs), the rules of who may fill each role, and the
// custody chain: status actions from the shared table, atomic and audited, with phone-signed receipts.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { prescriptionStatuses, type PrescriptionStatus } from '@careplane/shared/common/enums';
import { DEFAULT_TIME_ZONE } from '@careplane/shared/common/http';
import { addressLine } from '@careplane/shared/common/record-labels';
import { isLanguage, type Language } from '@careplane/shared/i18n/languages';
import {
  mayPerform,
  worksOn,
  type PrescriptionParties,
  type PrescriptionViewer,
} from '@careplane/shared/prescriptions/prescription-actors';
import {
  nextStatus,
  prescriptionActions,
  prescriptionTransitions,
  type PrescriptionAction,
} from '@careplane/shared/prescriptions/prescription-transitions';
import {
  lockedPrescriptionFields,
  pickupAssignmentIssues,
  separateDutiesIssues,
  type PrescriptionIssue,
  prescriptionLockedStatuses,
  shipperProviderTypes,
  supplierProviderTypes,
  type Prescription,
  type PrescriptionActionBody,
  type PrescriptionHistory,
  type PrescriptionReceipt,
  type PrescriptionSigningStarted,
  type PrescriptionSigningState,
  type PrescriptionVerification,
  type PrescriptionChoices,
  type PrescriptionViewerAnswer,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import { receiptTitle } from '@careplane/shared/prescriptions/receipt-titles';
import type { Executor } from '@/db/client.js';
import { actingFor, type ActionContext } from '@/lib/audit.js';
import { takenAt } from '@/lib/kept-actions.js';
import { accessRules, type Caller } from '@/lib/caller.js';
import {
  AppError,
  badRequest,
  conflict,
  type ErrorIssue,
  forbidden,
  notFound,
  serviceTexts,
  unauthorized,
} from '@/lib/errors.js';
import { answerOfRepeat, callerKey } from '@/lib/action-keys.js';
import type { Row } from '@/lib/resources/repository.js';
import { notFoundText } from '@/lib/service-texts.js';
import { createResourceService, type WritePlan } from '@/lib/resources/service.js';
import type { Store, WriteScope } from '@/lib/store.js';
import type { SigningStarted } from '@careplane/shared/documents/documents.contract';
import type {
  DocumentsService,
  FileDownload,
  SigningOutcome,
} from '@/modules/documents/documents.service.js';
import { signingFailureText } from '@/modules/documents/signing-failure-texts.js';
import { lockServiceProviders } from '@/modules/service-providers/service-providers.service.js';
import { missingUserIds } from '@/modules/users/users.service.js';
import { pickupReceiptPdf, prescriptionPdf, receiptLanguage, type PdfItem } from './prescription-pdf.js';
import {
  claimActionKey,
  employerIdsOf,
  findActionKey,
  saveActionAnswer,
  type PrescriptionActionKeyRow,
  employersWithTitles,
  otherWaitingSignings,
  prescriptionChoices,
  findPrescription,
  findSigning,
  historyOf,
  insertSigning,
  lockSigning,
  participantScope,
  peopleByIds,
  providersByIds,
  statusOf,
  statusReachedAt,
  transitionStatus,
  updateSigning,
  waitingSignings,
  waitingSigningsOf,
  type PrescriptionSigningRow,
  type PersonRow,
  type PrescriptionRow,
} from './prescriptions.repository.js';
import { prescriptionReferences, prescriptionsResource } from './prescriptions.resource.js';

const RESOURCE = 'prescriptions';

type ReferenceField = keyof typeof prescriptionReferences;

const userFields = ['issuer', 'nurse', 'shipperDriver', 'recipient'] as const;
const providerRoles = {
  supplier: supplierProviderTypes as readonly string[],
  shipper: shipperProviderTypes as readonly string[],
} as const;

const columnToField = new Map<string, string>(
  Object.entries(prescriptionReferences).map(([field, column]) => [column, field]),
);

/** The body fields of a write plan, by their public names. */
const planFields = (plan: WritePlan) =>
  Object.keys(plan.values).map((column) => columnToField.get(column) ?? column);

/** The id a plan sets for a reference, when it sets one (null clears it). */
const plannedId = (plan: WritePlan, field: ReferenceField) => {
  const value = plan.values[prescriptionReferences[field]];
  return typeof value === 'string' ? value : undefined;
};

async function referenceIssues(executor: Executor, plan: WritePlan): Promise<ErrorIssue[]> {
  const issues: ErrorIssue[] = [];

  const missingUsers = new Set(
    await missingUserIds(
      executor,
      userFields.flatMap((field) => plannedId(plan, field) ?? []),
    ),
  );
  for (const field of userFields) {
    const id = plannedId(plan, field);
    if (id && missingUsers.has(id)) issues.push({ path: `body.${field}`, message: 'No user with this id' });
  }

  const providerIds = (['supplier', 'shipper'] as const).flatMap((field) => plannedId(plan, field) ?? []);
  const providers = new Map((await lockServiceProviders(executor, providerIds)).map((row) => [row.id, row]));
  for (const field of ['supplier', 'shipper'] as const) {
    const id = plannedId(plan, field);
    if (!id) continue;
    const provider = providers.get(id);
    const allowed = providerRoles[field];
    if (!provider) {
      issues.push({ path: `body.${field}`, message: 'No service provider with this id' });
    } else if (!allowed.includes(provider.type)) {
      issues.push({
        path: `body.${field}`,
        message: `Must be a service provider of type ${allowed.join(' or ')}, not ${provider.type}`,
      });
    } else if (!provider.isEnabled) {
      issues.push({ path: `body.${field}`, message: 'The service provider is disabled' });
    }
  }
  return issues;
}

/** Fields that decide who picks the prescription up; a change to any of them re-checks the whole rule. */
const pickupFields = ['pickupByNurse', 'nurseId', 'shipperId'];
/** The people a prescription names (separateDutiesIssues). */
const peopleFields = ['issuerId', 'recipientId', 'nurseId', 'shipperDriverId'];

export async function checkPrescriptionWrite(
  executor: Executor,
  plan: WritePlan,
  existing: Row | null,
): Promise<void> {
  if (existing) {
    const status = existing.status as PrescriptionStatus;
    const locked = lockedPrescriptionFields(status, planFields(plan));
    if (locked.length) {
      throw new AppError(
        409,
        serviceTexts.prescriptionFieldsFixed(status, locked),
        locked.map((field) => ({ path: `body.${field}`, message: `Fixed in status ${status}` })),
      );
    }
  }

  const issues = await referenceIssues(executor, plan);
  // Each rule is checked on the record as the write would leave it, when the write changes what it is about:
  // a record written before the rule on its people can still have its address mended.
  const merged = { ...existing, ...plan.values };
  const touches = (columns: readonly string[]) =>
    !existing || columns.some((column) => Object.hasOwn(plan.values, column));
  const ruled: PrescriptionIssue[] = [
    ...(touches(pickupFields)
      ? pickupAssignmentIssues({
          pickupByNurse: merged.pickupByNurse as boolean | null | undefined,
          nurse: merged.nurseId as string | null | undefined,
          shipper: merged.shipperId as string | null | undefined,
        })
      : []),
    ...(touches(peopleFields)
      ? separateDutiesIssues({
          issuer: merged.issuerId as string | null | undefined,
          recipient: merged.recipientId as string | null | undefined,
          nurse: merged.nurseId as string | null | undefined,
          shipperDriver: merged.shipperDriverId as string | null | undefined,
        })
      : []),
  ];
  for (const issue of ruled) issues.push({ path: `body.${issue.path}`, message: issue.message });
  if (issues.length) throw badRequest('Invalid prescription', issues);
}

/** What the signer's phone shows for a prescription it is asked to sign: what is signed, for whom. */
const phoneTexts: Record<
  Language,
  {
    issue: (recipient: string, items: string) => string;
    pickup: (recipient: string, supplier: string, items: string) => string;
  }
> = {
  en: {
    issue: (recipient, items) => `Issue the prescription for ${recipient}: ${items}`,
    pickup: (recipient, supplier, items) => `Pick up for ${recipient} from ${supplier}: ${items}`,
  },
  th: {
    issue: (recipient, items) => `ออกใบสั่งยาให้ ${recipient}: ${items}`,
    pickup: (recipient, supplier, items) => `รับยาของ ${recipient} จาก ${supplier}: ${items}`,
  },
};

/**
 * The status conflict a signing's stored failure tells, when it is one: the server writes it itself, in English,
 * when the phone's approval came after the prescription had moved (`prescriptionWrongStatus`).
 */
function storedConflict(
  stored: string,
): { status: PrescriptionStatus; action: PrescriptionAction; needed: PrescriptionStatus[] } | undefined {
  const match = /^The prescription is ([a-z_]+): ([a-z-]+) needs (.+)$/.exec(stored);
  if (!match) return undefined;
  const [, status = '', action = '', from = ''] = match;
  const statuses = new Set<string>(prescriptionStatuses);
  const needed = from.split(' or ');
  if (
    !statuses.has(status) ||
    !(prescriptionActions as readonly string[]).includes(action) ||
    !needed.every((value) => statuses.has(value))
  ) {
    return undefined;
  }
  return {
    status: status as PrescriptionStatus,
    action: action as PrescriptionAction,
    needed: needed as PrescriptionStatus[],
  };
}

/**
 * A signing's stored failure in the reader's language. It is stored in English (the audit reads it too); the
 * one the server writes itself, the status conflict found when the phone's approval came too late, is made
 * again in the reader's language from its values; one the document's signature ended with (it is copied from
 * there) is told as the documents module tells it (signing-failure-texts.ts).
 */
function failureText(stored: string, language: Language | undefined): string {
  if (language !== 'th') return stored;
  const gone = notFoundText('Prescription');
  if (stored === gone.en) return gone.th;
  const edited = prescriptionActions.find(
    (action) => stored === serviceTexts.prescriptionChangedSinceAsked(action).en,
  );
  if (edited) return serviceTexts.prescriptionChangedSinceAsked(edited)[language];
  const conflict = storedConflict(stored);
  if (!conflict) return signingFailureText(stored, language);
  return serviceTexts.prescriptionWrongStatus(conflict.status, conflict.action, conflict.needed)[language];
}

/**
 * The 409 of an action the prescription's status does not allow: as it stands, or, when the action said which
 * status it was taken on (`expectedStatus`), because it has moved since.
 */
const statusConflict = (
  action: PrescriptionAction,
  status: PrescriptionStatus | undefined,
  expected?: PrescriptionStatus,
) => {
  if (!status) return notFound('Prescription');
  const from = prescriptionTransitions[action].from;
  const message =
    expected && expected !== status
      ? serviceTexts.prescriptionMovedMeanwhile(status, expected, action)
      : serviceTexts.prescriptionWrongStatus(status, action, from);
  return new AppError(409, message, [{ path: 'status', message: status, value: true }]);
};

const personName = (person: PersonRow | undefined) =>
  person ? [person.firstName, person.lastName].filter(Boolean).join(' ') || person.username : 'Unknown';

export interface PrescriptionsDeps {
  /** Generates and signs the receipts; without it issue and pickup answer 409 (tests of other modules). */
  documents?: DocumentsService;
  /** The console's address: the QR code of a printed prescription points to its verifier. */
  publicUrl?: string;
  /** The platform's time zone, in which generated receipts are dated (default Asia/Bangkok). */
  timeZone?: string;
}

export type ActionOutcome =
  | { kind: 'done'; prescription: Prescription; replayed?: boolean }
  | { kind: 'signing'; started: PrescriptionSigningStarted };

/**
 * What a key's repeat must match to be one: the reason of hold and return, and the status it was taken on when it
 * says one (left out otherwise, so that the keys recorded before it existed keep their fingerprints), hashed. Not
 * `keptForSeconds`: a send whose answer was lost is kept and sent again, saying how long it was kept, and is the
 * same action.
 */
const bodyFingerprint = (body: PrescriptionActionBody | null | undefined) =>
  createHash('sha256')
    .update(
      JSON.stringify({
        reason: body?.reason ?? null,
        ...(body?.expectedStatus ? { expectedStatus: body.expectedStatus } : {}),
      }),
    )
    .digest('hex');

/** A key used before: its answer again, or, when it was sent with another request, a clear refusal. */
const repeatOf = (
  earlier: PrescriptionActionKeyRow,
  id: string,
  action: PrescriptionAction,
  fingerprint: string,
) => ({
  answer: answerOfRepeat(
    { ...earlier, record: earlier.prescriptionId },
    { record: id, action, fingerprint },
    (otherBody) => serviceTexts.idempotencyKeyReused(earlier.action, earlier.prescriptionId, otherBody),
  ),
});

/** The audit rows of a signature's request and its ends other than the action itself. */
const signatureBookkeeping = /-(requested|denied|expired|failed)$/;
/** What the staff write or record for each other in an action's changes. */
const staffNotes = new Set(['reason', 'failure', 'requestId', 'requestedBy', 'signer', 'idempotencyKey']);
const withoutNotes = (changes: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(changes).filter(([key]) => !staffNotes.has(key)));

export function createPrescriptionsService(store: Store, deps: PrescriptionsDeps = {}) {
  const db = store.db;
  const doctorOrAdmin = (caller: Caller) => caller.isAdmin || caller.localRoles.includes('doctor');

  const prescriptions = createResourceService(store, prescriptionsResource, {
    access: { list: accessRules.signedIn, read: accessRules.signedIn, create: doctorOrAdmin },
    scope: (caller) => (caller ? participantScope(caller) : sql`false`),
    // Participants embed the people and providers of their prescriptions, not what those lead to (decision 062).
    nestedRelations: (caller) => caller?.isAdmin === true,
    check: async (executor, plan, mode, existing, context) => {
      if (mode === 'create') {
        const caller = context.caller;
        if (caller && !caller.isAdmin && plan.values.issuerId !== caller.userId) {
          throw forbidden(serviceTexts.ownPrescriptionsOnly);
        }
        await defaultAddresses(executor, plan);
      }
      await checkPrescriptionWrite(executor, plan, existing);
      // An edit is a new version (the row is locked): an issue or a pickup whose receipt was made from the
      // version before no longer completes (settleSigning).
      if (existing) plan.values.version = (existing.version as number) + 1;
    },
    // Once picked up the prescription is the custody record the receipts point to: kept (decision 012).
    afterWrite: async (_scope, write) => {
      const status = write.before?.status as PrescriptionStatus | undefined;
      if (write.operation === 'delete' && status && prescriptionLockedStatuses.includes(status)) {
        throw conflict(serviceTexts.prescriptionReadOnly(status));
      }
    },
  });

  /** Spec §5: the pickup address defaults to the supplier's, the delivery address to the recipient's. */
  async function defaultAddresses(executor: Executor, plan: WritePlan) {
    if (plan.values.pickupAddress === undefined && typeof plan.values.supplierId === 'string') {
      const [supplier] = await providersByIds(executor, [plan.values.supplierId]);
      if (supplier) plan.values.pickupAddress = supplier.address;
    }
    if (plan.values.deliveryAddress === undefined && typeof plan.values.recipientId === 'string') {
      const [recipient] = await peopleByIds(executor, [plan.values.recipientId]);
      const first = recipient?.address[0];
      if (first) plan.values.deliveryAddress = first;
    }
  }

  async function viewerOf(caller: Caller): Promise<PrescriptionViewer> {
    return {
      userId: caller.userId,
      localRoles: caller.localRoles,
      employerIds: await employerIdsOf(db, caller.userId),
      isAdmin: caller.isAdmin,
    };
  }

  const partiesOf = (row: PrescriptionRow): PrescriptionParties => ({
    ...row,
    status: row.status as PrescriptionStatus,
  });

  async function visible(id: string, caller: Caller) {
    const viewer = await viewerOf(caller);
    const row = await findPrescription(db, id, participantScope(viewer));
    if (!row) throw notFound('Prescription');
    return { viewer, row };
  }

  const readPlain = (id: string) => prescriptions.read(id, { relations: [] });

  /**
   * A status action. With `idempotencyKey` (plain actions only, decision 046) the first request makes the
   * transition and records the key in its transaction; a repeat, even one sent while the first is still
   * running, answers what the first answered and changes nothing.
   */
  async function perform(
    id: string,
    action: PrescriptionAction,
    body: PrescriptionActionBody | null | undefined,
    context: ActionContext,
    idempotencyKey?: string,
  ): Promise<ActionOutcome> {
    if (!context.caller) throw unauthorized();
    const transition = prescriptionTransitions[action];
    const performedAt =
      body?.keptForSeconds === undefined ? undefined : takenAt(body.keptForSeconds, new Date()).toISOString();
    if (idempotencyKey && transition.signs) {
      throw badRequest(serviceTexts.idempotencyKeyNotForSigning(action), [
        { path: 'headers.idempotency-key', message: 'Only for actions without a signature' },
      ]);
    }
    const key = callerKey(context, idempotencyKey);
    const { viewer, row } = await visible(id, context.caller);
    const fingerprint = bodyFingerprint(body);
    const replay = async (answer: Record<string, unknown> | null): Promise<ActionOutcome> => ({
      kind: 'done',
      prescription: (answer as Prescription | null) ?? (await readPlain(id)),
      replayed: true,
    });
    if (key) {
      const earlier = await findActionKey(db, key.userId, key.key);
      if (earlier) return replay(repeatOf(earlier, id, action, fingerprint).answer);
    }
    if (!mayPerform(action, partiesOf(row), viewer)) {
      throw forbidden(serviceTexts.prescriptionActorOnly(transition.actor, action));
    }
    const status = row.status as PrescriptionStatus;
    // An action taken on a status applies only from it (decision 093).
    const expected = body?.expectedStatus;
    const from = expected ? transition.from.filter((one) => one === expected) : transition.from;
    if (!from.includes(status)) throw statusConflict(action, status, expected);
    if (transition.signs)
      return { kind: 'signing', started: await askSignature(row, action, viewer, context) };

    const repeated = await store.write(context, async (scope) => {
      if (key && !(await claimActionKey(scope.tx, { ...key, prescriptionId: id, action, fingerprint }))) {
        // A request with the same key committed while this one ran: it answers for both.
        const earlier = await findActionKey(scope.tx, key.userId, key.key);
        if (earlier) return repeatOf(earlier, id, action, fingerprint);
      }
      const changed = await transitionStatus(scope.tx, id, from, transition.to);
      if (!changed) throw statusConflict(action, await statusOf(scope.tx, id), expected);
      // A phone cannot have taken the action before the status it was taken on was reached: a kept time
      // earlier than that (a phone that says it kept it 30 days) is recorded as that moment.
      const reached = performedAt ? await statusReachedAt(scope.tx, row) : undefined;
      const performedSince =
        performedAt && reached && new Date(performedAt) < reached ? reached.toISOString() : performedAt;
      await scope.audit({
        action,
        resource: RESOURCE,
        recordId: id,
        changes: {
          status: transition.to,
          ...(body?.reason ? { reason: body.reason } : {}),
          ...(performedSince ? { performedAt: performedSince } : {}),
          ...(key ? { idempotencyKey: key.key } : {}),
        },
      });
      return null;
    });
    if (repeated) return replay(repeated.answer);
    const prescription = await readPlain(id);
    if (key) await saveActionAnswer(db, key.userId, key.key, prescription);
    return { kind: 'done', prescription };
  }

  const verificationUrl = (id: string) =>
    `${deps.publicUrl ?? ''}/verify?prescription=${encodeURIComponent(id)}`;

  /**
   * The receipt's PDF, and what the signer's phone says it signs: the items and for whom, in the signer's own
   * language (else the request's), whatever language the receipt is in.
   */
  async function receiptOf(
    row: PrescriptionRow,
    action: PrescriptionAction,
    signer: PersonRow,
    requested: Language | undefined,
  ) {
    const people = new Map(
      (
        await peopleByIds(
          db,
          [row.issuerId, row.recipientId].filter((v) => v !== null),
        )
      ).map((p) => [p.id, p]),
    );
    const [supplier] = await providersByIds(db, row.supplierId ? [row.supplierId] : []);
    const recipient = people.get(row.recipientId ?? '');
    const common = {
      language: receiptLanguage(recipient?.language),
      prescriptionId: row.id,
      recipient: personName(recipient),
      supplier: supplier?.title ?? 'Unknown',
      items: row.content as unknown as PdfItem[],
      date: new Date(),
      timeZone: deps.timeZone ?? DEFAULT_TIME_ZONE,
      verificationUrl: verificationUrl(row.id),
    };
    const phone: Language = isLanguage(signer.language) ? signer.language : (requested ?? 'en');
    const items = common.items
      .map((item) => [item.name, item.strength, `× ${item.quantity}`, item.unit].filter(Boolean).join(' '))
      .join('; ');
    // The signer owns the generated file: its title is in their language, as the phone's text is.
    const title = receiptTitle(phone, action === 'issue' ? 'issue' : 'pickup', common.recipient, row.id);
    if (action === 'issue') {
      return {
        bytes: await prescriptionPdf({ ...common, issuer: personName(people.get(row.issuerId ?? '')) }),
        description: phoneTexts[phone].issue(common.recipient, items),
        title,
      };
    }
    return {
      title,
      bytes: await pickupReceiptPdf({
        ...common,
        picker: personName(signer),
        // The address as the console writes it (street and number, district, city, postal code, country).
        deliveryAddress: addressLine(row.deliveryAddress),
      }),
      description: phoneTexts[phone].pickup(common.recipient, common.supplier, items),
    };
  }

  /** issue and pickup: the receipt is generated and the signer's phone asked; the status waits for it. */
  async function askSignature(
    row: PrescriptionRow,
    action: PrescriptionAction,
    viewer: PrescriptionViewer,
    context: ActionContext,
  ): Promise<PrescriptionSigningStarted> {
    const documents = deps.documents;
    if (!documents) throw conflict(serviceTexts.signingUnavailable);
    // The issuer's phone signs the prescription, even when an admin asks; the picker's signs the pickup.
    const signerId = action === 'issue' ? row.issuerId : viewer.userId;
    const [signer] = await peopleByIds(db, signerId ? [signerId] : []);
    if (!signer) throw conflict(serviceTexts.noSigner(action));
    if (!signer.masterId) throw conflict(serviceTexts.signerWithoutIdentity(personName(signer)));
    // Asked again while the signer's phone still holds the first request (a second tap, a retry on a slow
    // network): the same request, with its code and the time it has left, not a second receipt and prompt.
    for (const waiting of await waitingSigningsOf(db, {
      prescriptionId: row.id,
      action,
      signerUserId: signer.id,
    })) {
      const started = await documents.waitingSignature(waiting.id);
      if (started) return { action, signerUserId: signer.id, signerName: personName(signer), ...started };
    }
    const { bytes, description, title } = await receiptOf(row, action, signer, context.language);
    const documentId = await store.write(context, (scope) =>
      documents.createGenerated(scope, { title, bytes, ownerUserId: signer.id }),
    );
    let started: SigningStarted;
    try {
      started = await documents.requestSignatureOf(
        documentId,
        { userId: signer.id, subject: signer.masterId },
        context,
        description,
      );
    } catch (error) {
      // No phone to ask (no identity, no enrolled key): nothing waits, so the generated file goes too.
      await documents.discardGenerated(documentId, context);
      throw error;
    }
    await store.write(context, async (scope) => {
      await insertSigning(scope.tx, {
        id: started.requestId,
        prescriptionId: row.id,
        action,
        documentId,
        requestedByUserId: viewer.userId,
        signerUserId: signer.id,
        // What the receipt was made from (`row`, read before it): an edit since is a later version.
        prescriptionVersion: row.version,
      });
      await scope.audit({
        action: `${action}-requested`,
        resource: RESOURCE,
        recordId: row.id,
        changes: { requestId: started.requestId, documentId, signer: signer.id },
      });
    });
    return { action, signerUserId: signer.id, signerName: personName(signer), ...started };
  }

  /**
   * Once an action has moved the prescription to `status`, the other actions still waiting for a phone that can
   * no longer happen from there (a second courier's pickup) end now, as failed with the status that stopped
   * them: their receipts are withdrawn and their phones stop offering them, instead of letting a signature be
   * given for a pickup that cannot be.
   */
  async function endOthers(scope: WriteScope, winner: PrescriptionSigningRow, status: PrescriptionStatus) {
    const withdrawn: string[] = [];
    for (const other of await otherWaitingSignings(scope.tx, winner.prescriptionId, winner.id)) {
      const action = other.action as PrescriptionAction;
      if (nextStatus(action, status)) continue;
      const failure = statusConflict(action, status).message;
      await updateSigning(scope.tx, other.id, { status: 'failed', failure, completedAt: new Date() });
      if (other.documentId) await deps.documents?.withdrawGenerated(scope, other.documentId);
      await scope.audit({
        action: `${action}-failed`,
        resource: RESOURCE,
        recordId: winner.prescriptionId,
        changes: { requestId: other.id, failure },
      });
      withdrawn.push(other.id);
    }
    await deps.documents?.withdrawSignatureRequests(scope, withdrawn);
  }

  /**
   * Ends an action that waited for a phone, in the transaction that ends its signature: signed, the
   * transition is made with the receipt set (or, when the prescription moved on meanwhile, because another
   * courier was faster, the action fails and says why); denied, expired or failed, nothing moves.
   */
  async function settleSigning(scope: WriteScope, outcome: SigningOutcome): Promise<void> {
    const signing = await lockSigning(scope.tx, outcome.requestId);
    if (!signing || signing.status !== 'pending') return;
    const action = signing.action as PrescriptionAction;
    const id = signing.prescriptionId;
    const ended = (status: SigningOutcome['status'], failure: string | null) =>
      updateSigning(scope.tx, signing.id, { status, failure, completedAt: new Date() });
    // The receipt of an action that did not happen is withdrawn with it, signed or not (decision 063).
    const withdrawReceipt = async () => {
      if (signing.documentId) await deps.documents?.withdrawGenerated(scope, signing.documentId);
    };
    // A signature needs its receipt: one deleted meanwhile ends the action as failed.
    const { status, failure } = signing.documentId
      ? outcome
      : { status: 'failed' as const, failure: serviceTexts.signingMaterialMissing.en };
    if (status !== 'signed' || !signing.documentId) {
      await ended(status, failure);
      await withdrawReceipt();
      await scope.audit({
        action: `${action}-${status}`,
        resource: RESOURCE,
        recordId: id,
        changes: { requestId: signing.id, ...(failure ? { failure } : {}) },
      });
      return;
    }
    const transition = prescriptionTransitions[action];
    const receiptColumn = action === 'issue' ? 'issuerReceiptId' : 'pickupReceiptId';
    const row = await findPrescription(scope.tx, id);
    const set =
      action === 'issue'
        ? { issuerReceiptId: signing.documentId }
        : {
            pickupReceiptId: signing.documentId,
            ...(row?.pickupByNurse ? {} : { shipperDriverId: signing.signerUserId }),
          };
    const changed = await transitionStatus(
      scope.tx,
      id,
      transition.from,
      transition.to,
      set,
      signing.prescriptionVersion ?? undefined,
    );
    if (!changed) {
      const again = await findPrescription(scope.tx, id);
      if (again?.[receiptColumn] === signing.documentId) return ended('signed', null);
      const status = again?.status as PrescriptionStatus | undefined;
      // Still in a status the action applies from: it was edited since the receipt was made.
      const failure =
        status && transition.from.includes(status)
          ? serviceTexts.prescriptionChangedSinceAsked(action).en
          : statusConflict(action, status).message;
      await ended('failed', failure);
      await withdrawReceipt();
      await scope.audit({
        action: `${action}-failed`,
        resource: RESOURCE,
        recordId: id,
        changes: { requestId: signing.id, failure },
      });
      return;
    }
    await ended('signed', null);
    await endOthers(scope, signing, transition.to);
    await scope.audit({
      action,
      resource: RESOURCE,
      recordId: id,
      changes: {
        status: transition.to,
        [receiptColumn.replace(/Id$/, '')]: signing.documentId,
        requestId: signing.id,
        ...(signing.requestedByUserId && signing.requestedByUserId !== signing.signerUserId
          ? { requestedBy: signing.requestedByUserId }
          : {}),
      },
    });
  }
  deps.documents?.onSigningSettled(settleSigning);

  /**
   * Settles an action whose signature has ended, if the action is still open. One whose receipt was deleted
   * meanwhile (an admin removed the document, and its signing request with it) ends as failed.
   */
  async function settleFromOutcome(
    signing: Pick<PrescriptionSigningRow, 'id' | 'documentId' | 'signerUserId'>,
  ) {
    const requestId = signing.id;
    const outcome: SigningOutcome | undefined =
      signing.documentId === null
        ? { requestId, documentId: '', signerUserId: signing.signerUserId, status: 'failed', failure: null }
        : await deps.documents?.signingOutcome(requestId);
    if (!outcome) return;
    const [signer] = await peopleByIds(db, [outcome.signerUserId]);
    const context = signer?.masterId
      ? actingFor({ userId: outcome.signerUserId, subject: signer.masterId })
      : { caller: null, ip: null };
    await store.write(context, (scope) => settleSigning(scope, outcome));
  }

  /**
   * Settles the actions whose signature ended without them (it ended before actions were settled with their
   * signature); the documents' sweep ends the signatures themselves.
   */
  async function settleWaitingSignings(limit = 200): Promise<void> {
    for (const signing of await waitingSignings(db, limit)) await settleFromOutcome(signing);
  }

  /** Where an issue or pickup waiting for a phone stands: the server completes it once the phone signs. */
  async function signingState(
    id: string,
    requestId: string,
    context: ActionContext,
  ): Promise<PrescriptionSigningState> {
    if (!context.caller) throw unauthorized();
    const documents = deps.documents;
    // Who asked and whose phone signs follow their request even if the prescription left them meanwhile
    // (another courier picked it up); everyone else learns nothing.
    const viewer = await viewerOf(context.caller);
    const signing = await findSigning(db, { id: requestId, prescriptionId: id });
    const mine =
      signing &&
      (viewer.isAdmin || [signing.requestedByUserId, signing.signerUserId].includes(viewer.userId));
    if (!signing || !mine || !documents) throw notFound('Signing request');
    const action = signing.action as PrescriptionAction;
    // Looking is not what completes it, but a look that comes first does no harm: it ends once either way.
    // An ended action asks the documents nothing: its receipt may be withdrawn (decision 063), also between
    // the two reads here, when the server ends it meanwhile (then there is no request left to look at).
    const state = signing.status === 'pending' ? await documents.settleSigning(requestId) : undefined;
    if (signing.status === 'pending' && state?.status !== 'pending') await settleFromOutcome(signing);
    const settled = (await findSigning(db, { id: requestId, prescriptionId: id })) ?? signing;
    if (settled.status === 'pending') {
      return {
        action,
        requestId,
        status: 'pending',
        ...(state?.expiresIn !== undefined ? { expiresIn: state.expiresIn } : {}),
      };
    }
    // Ended because the prescription had moved (another courier's pickup came first): the status it had then,
    // which the message tells too, for a console that says it in its own words.
    const conflict = settled.failure ? storedConflict(settled.failure) : undefined;
    return {
      action,
      requestId,
      status: settled.status,
      ...(settled.failure ? { message: failureText(settled.failure, context.language) } : {}),
      ...(conflict ? { prescriptionStatus: conflict.status } : {}),
      ...(settled.status === 'signed' ? { prescription: await readPlain(id) } : {}),
    };
  }

  /**
   * For anyone holding a printed receipt: the signed receipt itself as the platform holds it, to compare
   * with the paper. Unknown, unsigned and missing answer alike (404).
   */
  async function verifiedReceipt(id: string, which: PrescriptionReceipt): Promise<FileDownload> {
    const row = await findPrescription(db, id);
    const documentId = which === 'issuer' ? row?.issuerReceiptId : row?.pickupReceiptId;
    const file = documentId ? await deps.documents?.signedFile(documentId) : undefined;
    if (!file) throw notFound('Signed receipt of this prescription');
    return file;
  }

  /** The signed receipt of a prescription, for whoever takes part in it. */
  async function receipt(id: string, which: PrescriptionReceipt, caller: Caller): Promise<FileDownload> {
    const { row } = await visible(id, caller);
    const documentId = which === 'issuer' ? row.issuerReceiptId : row.pickupReceiptId;
    if (!documentId || !deps.documents) throw notFound('Receipt');
    return deps.documents.latestFile(documentId);
  }

  /**
   * For anyone holding a printed receipt (its QR code): the verification of each signed receipt. Unknown
   * prescriptions and those without a signed receipt answer alike, so the answer tells nothing else.
   */
  async function verification(id: string): Promise<PrescriptionVerification> {
    const row = await findPrescription(db, id);
    const receipts: PrescriptionVerification['receipts'] = [];
    for (const [receipt, documentId] of [
      ['issuer', row?.issuerReceiptId],
      ['pickup', row?.pickupReceiptId],
    ] as const) {
      const report = documentId ? await deps.documents?.verifyStored(documentId) : undefined;
      if (report) receipts.push({ receipt, report });
    }
    if (receipts.length === 0) throw notFound('Signed receipt of this prescription');
    return { receipts };
  }

  async function history(id: string, caller: Caller, language?: Language): Promise<PrescriptionHistory> {
    const { viewer, row } = await visible(id, caller);
    // The recipient alone reads what happened, not the staff's notes: the reason given for a hold or a
    // return, and the phone requests behind a signature (decision 085).
    const staff = worksOn(partiesOf(row), viewer);
    const rows = (await historyOf(db, id))
      .filter((entry) => staff || !signatureBookkeeping.test(entry.action))
      .map((entry) => (staff || !entry.changes ? entry : { ...entry, changes: withoutNotes(entry.changes) }));
    const names = new Map(
      (await peopleByIds(db, [...new Set(rows.map((r) => r.actorUserId).filter((v) => v !== null))])).map(
        (p) => [p.id, personName(p)],
      ),
    );
    return {
      items: rows.map((r) => ({
        at: r.at.toISOString(),
        action: r.action,
        actor: r.actorUserId ? (names.get(r.actorUserId) ?? null) : null,
        changes: r.changes ? inLanguage(r.changes, language) : null,
      })),
    };
  }

  /** An entry's changes as the reader reads them: why a signing failed, stored in English, in their language. */
  function inLanguage(changes: Record<string, unknown>, language: Language | undefined) {
    return typeof changes.failure === 'string'
      ? { ...changes, failure: failureText(changes.failure, language) }
      : changes;
  }

  /**
   * What the doctor's prescription form offers (decision 084), to those who may submit: doctors, and admins
   * (their own command centers' patients; the admin form names anyone).
   */
  async function choices(caller: Caller): Promise<PrescriptionChoices> {
    if (!doctorOrAdmin(caller) || !caller.userId) throw forbidden(serviceTexts.doctorsOnly);
    return prescriptionChoices(db, caller.userId);
  }

  /** Who is asking, for the console to derive its buttons from the shared table; and their employers. */
  async function viewer(caller: Caller): Promise<PrescriptionViewerAnswer> {
    const employers = await employersWithTitles(db, caller.userId);
    return {
      userId: caller.userId,
      localRoles: [...caller.localRoles],
      employerIds: employers.map((employer) => employer.id),
      employers,
      isAdmin: caller.isAdmin,
    };
  }

  return {
    prescriptions,
    perform,
    signingState,
    settleWaitingSignings,
    receipt,
    verification,
    verifiedReceipt,
    history,
    viewer,
    choices,
  };
}

export type PrescriptionsService = ReturnType<typeof createPrescriptionsService>;
