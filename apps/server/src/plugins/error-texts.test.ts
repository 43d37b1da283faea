// Every message a contract or a service writes for a refused field has its Thai sentence, and so has every
// message a service refuses a request with (lib/service-texts.ts): a new message without one fails here (or does
// not compile), before a Thai reader meets it in English.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { authoredMessages } from '@careplane/shared/i18n/validation-texts';
import { recordNames, serviceTexts, type Text } from '@/lib/service-texts.js';
import { localizeIssues, localizeMessage } from './error-texts.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true });
  return entries
    .filter((name) => name.endsWith('.ts') && !/\.(test|int\.test|fixtures)\.ts$/.test(name))
    .map((name) => path.join(root, dir, name));
}

/** The literal messages of schemas (`{ message: '…' }`, `{ error: '…' }`) and of issues (`{ path, message }`). */
async function literalMessages(files: string[], pattern: RegExp): Promise<Set<string>> {
  const found = new Set<string>();
  for (const file of files) {
    for (const match of (await readFile(file, 'utf8')).matchAll(pattern)) found.add(match[1]!);
  }
  return found;
}

describe('Thai for authored messages', () => {
  it('covers every literal message of the shared contracts and every issue a service writes', async () => {
    const contracts = await literalMessages(
      await sources('packages/shared/src'),
      /\b(?:message|error):\s*'([^']+)'/g,
    );
    const services = await literalMessages(
      await sources('apps/server/src'),
      /path: [`'][^`']*[`'],\s*message: '([^']+)'/g,
    );
    expect(contracts.size).toBeGreaterThan(15);
    expect(services.size).toBeGreaterThan(10);
    const missing = [...contracts, ...services].filter((message) => !authoredMessages[message]);
    expect(missing).toEqual([]);
  });

  it('names the field whether or not its path starts with the request part', () => {
    const issues = [
      { path: 'body.recipient', message: 'No user with this id' },
      { path: 'relations', message: 'relations are not supported here' },
      { path: 'body.watchers', message: 'No user with id a, b' },
      { path: 'relations', message: 'One of patient, nurse' },
    ];
    expect(localizeIssues(issues, 'th').map((issue) => issue.message)).toEqual([
      'ผู้รับยา: ไม่มีผู้ใช้ที่มีรหัสนี้',
      'ข้อมูลที่เกี่ยวข้อง: ใช้ relations ที่นี่ไม่ได้',
      'ผู้ติดตาม: ไม่มีผู้ใช้ที่มีรหัส a, b',
      'ข้อมูลที่เกี่ยวข้อง ต้องเป็นค่าใดค่าหนึ่งต่อไปนี้: patient, nurse',
    ]);
    expect(localizeIssues(issues, 'en')).toEqual(issues);
    expect(localizeMessage('Invalid request', 'th')).toBe('คำขอไม่ถูกต้อง: โปรดตรวจสอบข้อมูลที่ส่ง');
    expect(localizeMessage('Document not found', 'th')).toBe('Document not found');
  });
});

type Texts = typeof serviceTexts;
type Built = { [K in keyof Texts]: Texts[K] extends (...args: never[]) => Text ? K : never }[keyof Texts];

/** Each message with values, built with values to find in both languages (a new one without a line fails tsc). */
const samples: { [K in Built]: Parameters<Texts[K]> } = {
  prescriptionFieldsFixed: ['ready', ['contentX1', 'recipientX2']],
  prescriptionWrongStatus: ['waiting', 'pickup', ['ready']],
  prescriptionMovedMeanwhile: ['ready', 'waiting', 'hold'],
  prescriptionReadOnly: ['delivered'],
  prescriptionChangedSinceAsked: ['issue'],
  prescriptionActorOnly: ['supplierPharmacist', 'mark-ready'],
  idempotencyKeyNotForSigning: ['issue'],
  idempotencyKeyReused: ['accept', 'X1-prescription', true],
  idempotencyKeyReusedForAlert: ['close', 'X1-alert', true],
  noSigner: ['pickup'],
  signerWithoutIdentity: ['Somchai X1'],
  providerStillUsed: [['supplier', 'shipper']],
  jobNotNew: ['DONEX1'],
  jobCannotBecome: ['NEWX1', 'DONEX2'],
  jobStatusOfDevice: ['DONEX1'],
  iotDeviceLinkedElsewhere: [['X1', 'X2']],
  unsentDataType: ['heart_rateX1'],
  signingRefused: ['X1 cannot be signed'],
  signatureNotCompleted: ['X1 does not fit'],
  unexpectedField: ['X1'],
  fileTooLarge: ['20 MBX1'],
  uploadsAtOnce: [7],
  streamsPerTicket: [7],
  streamsPerUser: [7],
  bodyTooDeep: [7],
  invalidFilterValue: ['statusX1'],
  invalidPair: ['filtersX1', 'rawX2'],
  unknownFilter: ['X1'],
  unknownSearchPath: ['X1'],
  invalidSort: ['X1'],
  unknownView: ['X1'],
  relationTooDeep: ['X1'],
  unknownRelation: ['X1'],
  relationsNotHere: [['X1', 'X2']],
  unknownLinked: ['watchers', 'watchers'],
  routeNotFound: ['GETX1', '/api/X2'],
  duplicateValue: ['users_username_keyX1'],
  referencedRecordMissing: [' (patient_profile_idX1)'],
  requiredValueMissing: ['first_nameX1'],
  rateLimited: ['1 minute'],
  bodyStalled: [7],
  bodyTooLarge: [4],
};

const thaiScript = /[\u0E00-\u0E7F]/;
const valuesOf = (args: readonly unknown[]): string[] =>
  args.flatMap((arg) =>
    Array.isArray(arg) ? valuesOf(arg) : typeof arg === 'string' && /X\d/.test(arg) ? [arg] : [],
  );

describe('Thai for the messages services refuse requests with', () => {
  it('gives every message Thai words, not its English', () => {
    const built = new Set(Object.keys(samples));
    for (const [key, entry] of Object.entries(serviceTexts)) {
      const calls: Text[] =
        typeof entry === 'function'
          ? [(entry as (...args: unknown[]) => Text)(...(samples[key as Built] as unknown[]))]
          : [entry];
      expect(typeof entry === 'function' ? built.has(key) : true, `${key} has sample values`).toBe(true);
      for (const text of calls) {
        expect(text.th, key).toMatch(thaiScript);
        expect(text.th, key).not.toBe(text.en);
        // The values a message carries (ids, fields, limits) reach the Thai reader too.
        for (const value of valuesOf(samples[key as Built] ?? [])) {
          expect(text.en, key).toContain(value);
          expect(text.th, key).toContain(value);
        }
      }
    }
    for (const [name, thai] of Object.entries(recordNames)) expect(thai, name).toMatch(thaiScript);
  });

  it('finds no message written in place: a service refuses with an entry of lib/service-texts.ts', async () => {
    const helper =
      /(?:\b(?:badRequest|unauthorized|forbidden|conflict|tooManyRequests|unavailable|unsupportedMediaType)\(|new (?:AppError|Refusal)\(\s*\d+,)\s*([`'"])/g;
    const fixed = new Set(['Invalid request', 'Invalid fields', 'Invalid prescription', 'Invalid value']);
    const found: string[] = [];
    for (const file of await sources('apps/server/src')) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(helper)) {
        const rest = text.slice(match.index + match[0].length - 1, match.index + match[0].length + 80);
        const literal = /^['"`]([^'"`]*)/.exec(rest)?.[1] ?? '';
        if (!fixed.has(literal)) found.push(`${path.relative(root, file)}: ${rest.split('\n')[0]}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('answers a service message in either language, English as it always was', () => {
    expect(serviceTexts.prescriptionWrongStatus('waiting', 'pickup', ['ready'])).toEqual({
      en: 'The prescription is waiting: pickup needs ready',
      th: 'ใบสั่งยานี้อยู่ในสถานะ "รอจัดยา" (waiting): "รับยา" (pickup) ทำได้เมื่อสถานะเป็น "พร้อมรับยา" (ready) เท่านั้น',
    });
  });
});
