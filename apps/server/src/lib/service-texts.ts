// What a service says when it refuses a request, in English and Thai (decision 048). Each message is one entry
// here, named by what it says; a message with values is a function of them. The error carries both languages
// and the error handler answers in the request's. English is the message as it always was (tests and clients
// read it); a message without Thai does not compile, as `AppError` takes a `Text`, not a string.
import type {
  PrescriptionAction,
  PrescriptionActor,
} from '@careplane/shared/prescriptions/prescription-transitions';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import { thaiEnumWords } from '@careplane/shared/i18n/enum-texts';
import { fieldName } from '@careplane/shared/i18n/validation-texts';

/** A message in every language the server speaks. */
export interface Text {
  en: string;
  th: string;
}

/** The records a 404 can name: `User not found` / `ไม่พบผู้ใช้`. */
export const recordNames = {
  Record: 'ข้อมูล',
  Alert: 'การแจ้งเตือน',
  'Command center': 'ศูนย์สั่งการ',
  Device: 'อุปกรณ์',
  'Device job': 'งานของอุปกรณ์',
  'Device stat': 'สถานะอุปกรณ์',
  Document: 'เอกสาร',
  Export: 'ไฟล์ส่งออก',
  'File of the document': 'ไฟล์ของเอกสาร',
  'IoT device': 'อุปกรณ์ IoT',
  'Patient profile': 'ข้อมูลผู้ป่วย',
  Phone: 'โทรศัพท์',
  Prescription: 'ใบสั่งยา',
  'QR session': 'รหัส QR สำหรับเข้าสู่ระบบ',
  Reading: 'ค่าที่วัดได้',
  Receipt: 'เอกสารที่ลงนามของใบสั่งยา',
  Request: 'คำขอ',
  'Resource authorization': 'คำขออนุมัติรายการ',
  'Service provider': 'ผู้ให้บริการ',
  'Sign-in identity': 'บัญชีเข้าสู่ระบบ',
  'Signed receipt of this prescription': 'เอกสารที่ลงนามแล้วของใบสั่งยานี้',
  'Signed version of the document': 'ฉบับที่ลงนามแล้วของเอกสาร',
  'Signing request': 'คำขอลงนาม',
  User: 'ผู้ใช้',
  Workstation: 'สถานีงาน',
} as const satisfies Record<string, string>;
export type RecordName = keyof typeof recordNames;

export const notFoundText = (what: RecordName): Text => ({
  en: `${what} not found`,
  th: `ไม่พบ${recordNames[what]}`,
});

const prescriptionActors = {
  issuer: { en: 'the issuer', th: 'ผู้สั่งยา' },
  supplierPharmacist: { en: 'a pharmacist of the supplier', th: 'เภสัชกรของร้านยา' },
  pickupParty: {
    en: 'the nurse, driver or courier assigned to pick it up',
    th: 'พยาบาล คนขับรถ หรือผู้ส่งของที่ได้รับมอบหมายให้มารับยา',
  },
  picker: { en: 'whoever picked it up', th: 'ผู้ที่รับยาไปแล้ว' },
} as const satisfies Record<PrescriptionActor, Text>;

/** The prescription statuses and actions in the console's Thai words, then as the API spells them. */
const actionWords: Record<PrescriptionAction, string> = {
  issue: 'ออกใบสั่งยา',
  accept: 'รับเรื่อง',
  hold: 'พักไว้',
  resume: 'ดำเนินการต่อ',
  'mark-ready': 'จัดยาเสร็จ',
  pickup: 'รับยา',
  delivered: 'ส่งถึงแล้ว',
  return: 'ส่งคืน',
  restock: 'คืนเข้าคลัง',
};
/** Each action as what it does to the prescription, in English ("mark this prescription ready"). */
const actionPhrases: Record<PrescriptionAction, string> = {
  issue: 'issue this prescription',
  accept: 'accept this prescription',
  hold: 'put this prescription on hold',
  resume: 'resume this prescription',
  'mark-ready': 'mark this prescription ready',
  pickup: 'pick up this prescription',
  delivered: 'mark this prescription delivered',
  return: 'return this prescription',
  restock: 'restock this prescription',
};
const statusWord = (status: PrescriptionStatus) =>
  `"${thaiEnumWords.prescriptionStatus[status]}" (${status})`;
const actionWord = (action: PrescriptionAction) => `"${actionWords[action]}" (${action})`;

/** The rate limiter's wait ("1 minute", "30 seconds", "500 ms") in Thai; as written when not of that form. */
const durationUnits: Record<string, string> = {
  ms: 'มิลลิวินาที',
  second: 'วินาที',
  minute: 'นาที',
  hour: 'ชั่วโมง',
  day: 'วัน',
  year: 'ปี',
};
function thaiDuration(after: string): string {
  const [, amount, unit = ''] = /^(-?\d+) (ms|second|minute|hour|day|year)s?$/.exec(after) ?? [];
  return amount === undefined ? after : `${amount} ${durationUnits[unit]}`;
}

export const serviceTexts = {
  // --- the caller and their rights
  authenticationRequired: { en: 'Authentication required', th: 'ต้องเข้าสู่ระบบก่อน' },
  notAllowed: { en: 'Not allowed', th: 'ไม่มีสิทธิ์ทำรายการนี้' },
  adminRightsRequired: { en: 'Admin rights required', th: 'ต้องมีสิทธิ์ผู้ดูแลระบบ' },
  invalidOrExpiredToken: {
    en: 'Invalid or expired token',
    th: 'โทเค็นไม่ถูกต้องหรือหมดอายุแล้ว โปรดเข้าสู่ระบบอีกครั้ง',
  },
  invalidDeviceToken: { en: 'Invalid device token', th: 'โทเค็นของอุปกรณ์ไม่ถูกต้อง' },
  deviceTokenRequired: { en: 'A device token is required', th: 'ต้องใช้โทเค็นของอุปกรณ์' },
  signInEnded: { en: 'This sign-in has ended', th: 'การเข้าสู่ระบบครั้งนี้สิ้นสุดแล้ว โปรดเข้าสู่ระบบอีกครั้ง' },
  accountBlocked: { en: 'This account is blocked', th: 'บัญชีนี้ถูกระงับการใช้งาน' },
  metricsTokenRequired: { en: 'A metrics token is required', th: 'ต้องใช้โทเค็นสำหรับอ่านค่าสถิติระบบ' },
  metricsTokenWrong: {
    en: 'This is not the metrics token the server was given (METRICS_TOKEN)',
    th: 'โทเค็นนี้ไม่ใช่โทเค็นสำหรับอ่านค่าสถิติระบบที่ตั้งไว้บนเซิร์ฟเวอร์ (METRICS_TOKEN)',
  },
  notAnIdToken: { en: 'Not an id token', th: 'โทเค็นนี้ไม่ใช่ id token' },
  invalidIdToken: { en: 'Invalid or expired id token', th: 'id token ไม่ถูกต้องหรือหมดอายุแล้ว' },
  tokensOfDifferentIdentities: {
    en: 'The id token and the access token belong to different identities',
    th: 'id token และ access token เป็นของบัญชีต่างกัน',
  },
  noUserRecordYet: {
    en: 'No user record for this identity yet: sign in once with POST /api/auth',
    th: 'บัญชีนี้ยังไม่มีข้อมูลผู้ใช้ โปรดเข้าสู่ระบบหนึ่งครั้งก่อน (POST /api/auth)',
  },
  identityWithoutUser: {
    en: 'An identity with this username exists but belongs to no user record',
    th: 'มีบัญชีเข้าสู่ระบบที่ใช้ชื่อผู้ใช้นี้อยู่แล้ว แต่ไม่ได้ผูกกับข้อมูลผู้ใช้ใด',
  },
  usernameOfAnotherIdentity: {
    en: 'This username belongs to a user of another identity',
    th: 'ชื่อผู้ใช้นี้เป็นของผู้ใช้ที่ผูกกับบัญชีเข้าสู่ระบบอื่น',
  },
  careTeamOnly: {
    en: "Only a command center's care team (a supervisor, nurse or doctor assigned to it) may use these calls",
    th: 'เฉพาะทีมดูแลของศูนย์สั่งการ (หัวหน้างาน พยาบาล หรือแพทย์ที่ได้รับมอบหมาย) เท่านั้นที่ใช้รายการนี้ได้',
  },

  // --- prescriptions
  doctorsOnly: {
    en: 'Only a doctor or an admin writes prescriptions: this list is what the prescription form offers',
    th: 'เฉพาะแพทย์หรือผู้ดูแลระบบเท่านั้นที่เขียนใบสั่งยาได้: รายการนี้คือตัวเลือกในแบบฟอร์มใบสั่งยา',
  },
  ownPrescriptionsOnly: {
    en: 'A doctor submits prescriptions in their own name: issuer must be you',
    th: 'แพทย์ส่งใบสั่งยาได้ในนามของตนเองเท่านั้น: ผู้สั่งยาต้องเป็นคุณ',
  },
  prescriptionFieldsFixed: (status: PrescriptionStatus, fields: readonly string[]): Text => ({
    en: `A prescription in status ${status} can no longer change ${fields.join(', ')}`,
    th: `ใบสั่งยาในสถานะ ${statusWord(status)} แก้ไข ${fields.join(', ')} ไม่ได้แล้ว`,
  }),
  prescriptionWrongStatus: (
    status: PrescriptionStatus,
    action: PrescriptionAction,
    from: readonly PrescriptionStatus[],
  ): Text => ({
    en: `The prescription is ${status}: ${action} needs ${from.join(' or ')}`,
    th: `ใบสั่งยานี้อยู่ในสถานะ ${statusWord(status)}: ${actionWord(action)} ทำได้เมื่อสถานะเป็น ${from.map(statusWord).join(' หรือ ')} เท่านั้น`,
  }),
  prescriptionReadOnly: (status: PrescriptionStatus): Text => ({
    en: `A prescription in status ${status} is kept as it is: it cannot be deleted`,
    th: `ใบสั่งยาในสถานะ ${statusWord(status)} ต้องเก็บไว้ตามเดิม: ลบไม่ได้`,
  }),
  prescriptionChangedSinceAsked: (action: PrescriptionAction): Text => ({
    en: `The prescription was changed after the phone was asked to sign its ${action}: the signature covers what it was then, so ${action} was not applied; ask again`,
    th: `ใบสั่งยาถูกแก้ไขหลังจากขอให้โทรศัพท์ลงนามรายการ ${actionWord(action)}: ลายเซ็นครอบคลุมเฉพาะข้อมูลก่อนแก้ไข รายการนี้จึงไม่ถูกบันทึก โปรดขอลงนามใหม่`,
  }),
  prescriptionMovedMeanwhile: (
    status: PrescriptionStatus,
    expected: PrescriptionStatus,
    action: PrescriptionAction,
  ): Text => ({
    en: `The prescription is now ${status}, no longer ${expected} as when ${action} was taken: it was not applied`,
    th: `ใบสั่งยานี้อยู่ในสถานะ ${statusWord(status)} แล้ว ไม่ใช่ ${statusWord(expected)} อย่างตอนที่ทำรายการ ${actionWord(action)}: รายการนี้จึงไม่ถูกบันทึก`,
  }),
  prescriptionActorOnly: (actor: PrescriptionActor, action: PrescriptionAction): Text => ({
    en: `Only ${prescriptionActors[actor].en} may ${actionPhrases[action]} (${action})`,
    th: `เฉพาะ${prescriptionActors[actor].th}เท่านั้นที่ทำรายการ ${actionWord(action)} กับใบสั่งยานี้ได้`,
  }),
  idempotencyKeyNotForSigning: (action: PrescriptionAction): Text => ({
    en: `${action} does not take an Idempotency-Key: it waits for a phone signature`,
    th: `รายการ ${actionWord(action)} ไม่รับ Idempotency-Key เพราะต้องรอการลงนามบนโทรศัพท์`,
  }),
  idempotencyKeyNeedsUser: {
    en: 'An Idempotency-Key needs a signed-in user',
    th: 'Idempotency-Key ใช้ได้เฉพาะผู้ใช้ที่เข้าสู่ระบบแล้ว',
  },
  idempotencyKeyReused: (action: string, prescriptionId: string, otherBody: boolean): Text => ({
    en:
      `This Idempotency-Key was already used for another request (${action} of prescription ` +
      `${prescriptionId}${otherBody ? ' with another body' : ''}): send a new key for a new action`,
    th:
      `Idempotency-Key นี้ถูกใช้กับคำขออื่นไปแล้ว (${action} ของใบสั่งยา ${prescriptionId}` +
      `${otherBody ? ' ด้วยข้อมูลที่ต่างกัน' : ''}): โปรดใช้ key ใหม่สำหรับรายการใหม่`,
  }),
  idempotencyKeyReusedForAlert: (action: string, alertId: string, otherBody: boolean): Text => ({
    en:
      `This Idempotency-Key was already used for another request (${action} of alert ` +
      `${alertId}${otherBody ? ' with other closing data' : ''}): send a new key for a new action`,
    th:
      `Idempotency-Key นี้ถูกใช้กับคำขออื่นไปแล้ว (${action} ของการแจ้งเตือน ${alertId}` +
      `${otherBody ? ' ด้วยข้อมูลการปิดที่ต่างกัน' : ''}): โปรดใช้ key ใหม่สำหรับรายการใหม่`,
  }),
  invalidIdempotencyKeyHeader: {
    en: 'Invalid Idempotency-Key header: it must be one UUID',
    th: 'ส่วนหัว Idempotency-Key ไม่ถูกต้อง: ต้องเป็น UUID หนึ่งค่า',
  },
  signingUnavailable: {
    en: 'Signing is not available on this server',
    th: 'เซิร์ฟเวอร์นี้ไม่มีบริการลงนามเอกสาร',
  },
  noSigner: (action: PrescriptionAction): Text => ({
    en: `The prescription has no ${action === 'issue' ? 'issuer' : 'picker'} to sign`,
    th: `ใบสั่งยานี้ไม่มี${action === 'issue' ? 'ผู้สั่งยา' : 'ผู้รับยา'}ที่จะลงนาม`,
  }),
  signerWithoutIdentity: (name: string): Text => ({
    en: `${name} cannot sign: no sign-in identity`,
    th: `${name} ลงนามไม่ได้ เพราะยังไม่มีบัญชีเข้าสู่ระบบ`,
  }),
  providerStillUsed: (roles: readonly ('supplier' | 'shipper')[]): Text => ({
    en: `The service provider is the ${roles.join(' and ')} of prescriptions`,
    th: `ผู้ให้บริการนี้ยังเป็น${roles.map((role) => (role === 'supplier' ? 'ร้านยา' : 'ผู้จัดส่ง')).join('และ')}ของใบสั่งยาอยู่`,
  }),

  // --- alerts, command centers, devices
  alertClosed: { en: 'This alert is closed', th: 'การแจ้งเตือนนี้ปิดไปแล้ว' },
  alertAcknowledged: { en: 'This alert is already acknowledged', th: 'การแจ้งเตือนนี้มีผู้รับทราบแล้ว' },
  closingNeedsUser: {
    en: 'Closing an alert needs your user record: sign in to the application once',
    th: 'การปิดการแจ้งเตือนต้องมีข้อมูลผู้ใช้ของคุณ: โปรดเข้าสู่ระบบแอปพลิเคชันหนึ่งครั้งก่อน',
  },
  closingDataOnlyWhenClosing: {
    en: 'closingData is only given when closing an alert',
    th: 'ส่งข้อมูลการปิดการแจ้งเตือน (closingData) ได้เฉพาะเมื่อปิดการแจ้งเตือน',
  },
  nothingToReboot: {
    en: 'This user has no device assigned, so there is nothing to reboot.',
    th: 'ผู้ใช้นี้ยังไม่มีอุปกรณ์ที่กำหนดให้ จึงไม่มีอุปกรณ์ให้รีสตาร์ต',
  },
  jobNotNew: (status: string): Text => ({
    en: `A job in status ${status} cannot be acknowledged`,
    th: `งานที่อยู่ในสถานะ ${status} รับทราบไม่ได้`,
  }),
  jobNotFetched: {
    en: 'Only a fetched job can be acknowledged',
    th: 'รับทราบได้เฉพาะงานที่อุปกรณ์ดึงไปแล้ว',
  },
  jobCannotBecome: (from: string, to: string): Text => ({
    en: `A job in status ${from} cannot become ${to}`,
    th: `งานที่อยู่ในสถานะ ${from} เปลี่ยนเป็น ${to} ไม่ได้`,
  }),
  jobStatusOfDevice: (to: string): Text => ({
    en: `Only the device moves a job to ${to}; an admin may only cancel it`,
    th: `เฉพาะอุปกรณ์เท่านั้นที่เปลี่ยนงานเป็น ${to} ได้ ผู้ดูแลระบบทำได้เพียงยกเลิกงาน`,
  }),
  iotDeviceLinkedElsewhere: (ids: readonly string[]): Text => ({
    en: `IoT device already linked to another client device: ${ids.join(', ')}`,
    th: `อุปกรณ์ IoT นี้เชื่อมกับอุปกรณ์อื่นอยู่แล้ว: ${ids.join(', ')}`,
  }),
  readingsNotChanged: {
    en: 'Readings are measurements and are not changed once stored',
    th: 'ค่าที่วัดได้เป็นผลการวัด บันทึกแล้วแก้ไขไม่ได้',
  },
  iotDeviceNotFound: { en: 'IoT device not found', th: 'ไม่พบอุปกรณ์ IoT' },
  noIotDeviceWithHardwareId: {
    en: 'No IoT device has this hardware identifier',
    th: 'ไม่มีอุปกรณ์ IoT ที่มีรหัสฮาร์ดแวร์นี้',
  },
  trustedNeedsSecret: {
    en: "A trusted IoT device's readings need its connection secret",
    th: 'ค่าที่วัดได้จากอุปกรณ์ IoT ที่เชื่อถือได้ต้องส่งพร้อมรหัสลับการเชื่อมต่อ',
  },
  trustedSecretWrong: {
    en: "The connection secret is not this trusted IoT device's: send the one set on the device",
    th: 'รหัสลับการเชื่อมต่อไม่ตรงกับของอุปกรณ์ IoT ที่เชื่อถือได้นี้ โปรดส่งรหัสที่ตั้งไว้ในอุปกรณ์',
  },
  unsentDataType: (dataType: string): Text => ({
    en: `This IoT device does not send ${dataType} readings`,
    th: `อุปกรณ์ IoT นี้ไม่ได้ส่งค่า ${dataType}`,
  }),
  invalidTrust: {
    en: 'Invalid trust level and connection secret',
    th: 'ระดับความน่าเชื่อถือและรหัสลับการเชื่อมต่อไม่ถูกต้อง',
  },
  iotDeviceOneLink: {
    en: 'This IoT device may be linked to one device only',
    th: 'อุปกรณ์ IoT นี้เชื่อมกับอุปกรณ์ได้เพียงเครื่องเดียว',
  },

  // --- documents and signing
  ownerSharesOnly: {
    en: 'Only the owner of the document can share it',
    th: 'เฉพาะเจ้าของเอกสารเท่านั้นที่แชร์เอกสารได้',
  },
  ownerDeletesOnly: {
    en: 'Only the owner of the document can delete it',
    th: 'เฉพาะเจ้าของเอกสารเท่านั้นที่ลบเอกสารได้',
  },
  ownerOrPartiesSign: {
    en: 'Only the owner and the parties asked to sign can sign this document',
    th: 'เฉพาะเจ้าของเอกสารและผู้ที่ได้รับคำขอให้ลงนามเท่านั้นที่ลงนามเอกสารนี้ได้',
  },
  alreadySigned: {
    en: 'This signer has signed this document already',
    th: 'ผู้ลงนามคนนี้ลงนามเอกสารนี้ไปแล้ว',
  },
  noFileToSign: { en: 'This document has no file to sign', th: 'เอกสารนี้ไม่มีไฟล์ให้ลงนาม' },
  signerUnknown: {
    en: 'The signer is not known to the sign-in server',
    th: 'ระบบเข้าสู่ระบบไม่รู้จักผู้ลงนามคนนี้',
  },
  noAuthenticator: {
    en: "The signer has no phone that may sign: none is enrolled, or every one was revoked. An administrator enrolls one on the signer's page",
    th: 'ผู้ลงนามไม่มีโทรศัพท์ที่ใช้ลงนามได้ เพราะยังไม่ได้ลงทะเบียนหรือถูกเพิกถอนทั้งหมดแล้ว ผู้ดูแลระบบลงทะเบียนโทรศัพท์ให้ได้ที่หน้าของผู้ลงนาม',
  },
  fileMissing: { en: 'The file of this document is missing', th: 'ไม่พบไฟล์ของเอกสารนี้' },
  signingRefused: (detail: string): Text => ({
    en: detail,
    th: `ลงนามเอกสารนี้ไม่ได้: ${detail}`,
  }),
  // A signing's failure, stored in English (the audit keeps the same words) and told in the reader's language
  // when read (modules/documents/signing-failure-texts.ts).
  phoneAnsweredWithoutSignature: {
    en: 'The phone answered without a document signature',
    th: 'โทรศัพท์ตอบกลับมาโดยไม่มีลายมือชื่อของเอกสาร',
  },
  signingMaterialMissing: {
    en: 'The document or the certificate is missing',
    th: 'ไม่พบเอกสารหรือใบรับรองที่ใช้ลงนาม',
  },
  preparedSignatureChanged: {
    en: 'The prepared signature changed; ask again',
    th: 'ลายมือชื่อที่เตรียมไว้เปลี่ยนไปแล้ว โปรดขอลงนามอีกครั้ง',
  },
  signatureNotCompleted: (detail: string): Text => ({
    en: `The signature could not be completed: ${detail}`,
    th: `ลงนามให้เสร็จสมบูรณ์ไม่ได้: ${detail}`,
  }),
  phoneRevokedBeforeAnswer: {
    en: 'The phone was revoked before it answered, so nothing was signed: ask again once another phone is enrolled',
    th: 'โทรศัพท์ถูกเพิกถอนก่อนที่จะตอบกลับ จึงไม่มีการลงนามใด ๆ โปรดขอลงนามอีกครั้งเมื่อลงทะเบียนโทรศัพท์เครื่องใหม่แล้ว',
  },
  signedMeanwhile: {
    en: 'Someone else signed this document meanwhile: ask your phone again',
    th: 'มีผู้อื่นลงนามเอกสารนี้ไปก่อนแล้ว โปรดขอลงนามบนโทรศัพท์อีกครั้ง',
  },
  fileEmpty: { en: 'The file is empty', th: 'ไฟล์ว่างเปล่า' },
  uploadTooSlow: {
    en: 'The upload took too long and was not kept: send the file again',
    th: 'อัปโหลดนานเกินไปจึงไม่ได้บันทึกไฟล์ โปรดส่งไฟล์อีกครั้ง',
  },
  multipartOnly: {
    en: 'Send the file as multipart/form-data in a field named "file"',
    th: 'โปรดส่งไฟล์แบบ multipart/form-data ในช่องชื่อ "file"',
  },
  malformedMultipart: {
    en: 'The form could not be read: send it as multipart/form-data with its boundary, whole',
    th: 'อ่านแบบฟอร์มไม่ได้ โปรดส่งแบบ multipart/form-data พร้อม boundary และส่งให้ครบ',
  },
  oneFileOnly: { en: 'Only one file, in the field "file"', th: 'ส่งได้เพียงไฟล์เดียว ในช่อง "file"' },
  unexpectedField: (name: string): Text => ({
    en: `Unexpected field ${name}`,
    th: `ไม่รับช่องข้อมูล ${name}`,
  }),
  noFile: { en: 'No file: send it in the field "file"', th: 'ไม่มีไฟล์: โปรดส่งไฟล์ในช่อง "file"' },
  fileTooLarge: (limit: string): Text => ({
    en: `The file is larger than ${limit}, the most a document may hold`,
    th: `ไฟล์ใหญ่เกิน ${limit} ซึ่งเป็นขนาดสูงสุดของเอกสาร`,
  }),
  uploadsAtOnce: (limit: number): Text => ({
    en: `At most ${limit} ${limit === 1 ? 'upload' : 'uploads'} at once: wait until one has finished`,
    th: `อัปโหลดพร้อมกันได้ไม่เกิน ${limit} ไฟล์: โปรดรอให้ไฟล์ที่กำลังอัปโหลดเสร็จก่อน`,
  }),

  // --- live events
  invalidEventTicket: { en: 'Invalid event ticket', th: 'ตั๋วรับข้อมูลสดไม่ถูกต้อง' },
  eventTicketExpired: {
    en: 'The event ticket has expired: ask for a new one',
    th: 'ตั๋วรับข้อมูลสดหมดอายุแล้ว โปรดขอตั๋วใหม่',
  },
  streamsPerTicket: (limit: number): Text => ({
    en: `At most ${limit} live streams per ticket: close one or ask for a new ticket`,
    th: `เปิดการรับข้อมูลสดได้ไม่เกิน ${limit} ช่องต่อหนึ่งตั๋ว: โปรดปิดช่องหนึ่งหรือขอตั๋วใหม่`,
  }),
  streamsPerUser: (limit: number): Text => ({
    en: `At most ${limit} live streams at once per person: close a tab`,
    th: `เปิดการรับข้อมูลสดพร้อมกันได้ไม่เกิน ${limit} ช่องต่อคน: โปรดปิดแท็บที่ไม่ใช้`,
  }),

  // --- the sign-in server and the phone
  signInsTooMany: {
    en: 'too many sign-in requests for this identifier, try again later',
    th: 'มีคำขอเข้าสู่ระบบด้วยชื่อผู้ใช้นี้มากเกินไป โปรดลองอีกครั้งภายหลัง',
  },
  loginHintTokenUnsupported: {
    en: 'login_hint_token is not supported',
    th: 'ไม่รองรับ login_hint_token: โปรดระบุชื่อผู้ใช้ใน login_hint',
  },
  bindingMessageInvalid: {
    en: 'binding_message must be 1-40 letters, digits, spaces or .,:!?#+/_-',
    th: 'binding_message ต้องยาว 1-40 ตัว และมีได้เฉพาะตัวอักษร ตัวเลข ช่องว่าง หรือ .,:!?#+/_-',
  },
  signInDenied: { en: 'The user denied the sign-in', th: 'ผู้ใช้ปฏิเสธการเข้าสู่ระบบ' },
  unknownAuthenticatorKey: {
    en: 'Unknown or revoked authenticator key',
    th: 'ไม่รู้จักกุญแจของแอปยืนยันตัวตนนี้ หรือกุญแจถูกเพิกถอนแล้ว',
  },
  signedTimeOff: {
    en: 'Signed time is too far off',
    th: 'เวลาที่ลงนามคลาดเคลื่อนมากเกินไป โปรดตรวจสอบเวลาของโทรศัพท์',
  },
  signatureDoesNotVerify: {
    en: 'The signature does not verify',
    th: 'ตรวจสอบลายมือชื่อดิจิทัลไม่ผ่าน',
  },
  documentSignatureDoesNotVerify: {
    en: 'The document signature does not verify',
    th: 'ตรวจสอบลายมือชื่อดิจิทัลของเอกสารไม่ผ่าน',
  },
  documentSignatureOnlyForDocuments: {
    en: 'Only a document signing request takes a document signature',
    th: 'ส่งลายมือชื่อของเอกสารได้เฉพาะคำขอลงนามเอกสาร',
  },
  documentSignatureNeeded: {
    en: 'Approving a document signature needs documentSignature',
    th: 'การอนุมัติการลงนามเอกสารต้องส่ง documentSignature',
  },
  requestExpired: { en: 'The request has expired', th: 'คำขอนี้หมดอายุแล้ว' },
  signInEndedBeforeApproval: {
    en: 'This sign-in ended before the approval arrived: start it again',
    th: 'การเข้าสู่ระบบครั้งนี้สิ้นสุดไปก่อนที่การอนุมัติจะมาถึง โปรดเริ่มเข้าสู่ระบบอีกครั้ง',
  },
  requestAnswered: { en: 'The request was already answered', th: 'คำขอนี้ได้รับการตอบไปแล้ว' },
  documentsApiSigns: {
    en: 'Document signatures are asked by the documents API (POST /api/documents/{id}/sign), which prepares what is signed',
    th: 'คำขอลงนามเอกสารต้องส่งผ่าน API เอกสาร (POST /api/documents/{id}/sign) ซึ่งเป็นผู้เตรียมสิ่งที่จะลงนาม',
  },
  slowDown: {
    en: 'slow_down: polling faster than the interval',
    th: 'slow_down: ถามสถานะถี่กว่าช่วงเวลาที่กำหนด',
  },
  signInCodeUnknown: {
    en: 'This sign-in code is unknown, expired or already used',
    th: 'รหัสเข้าสู่ระบบนี้ไม่ถูกต้อง หมดอายุ หรือถูกใช้ไปแล้ว',
  },
  identityExists: {
    en: 'An identity with this username already exists',
    th: 'มีบัญชีเข้าสู่ระบบที่ใช้ชื่อผู้ใช้นี้อยู่แล้ว',
  },
  enrollmentCodeRefused: {
    en: 'Invalid, used or expired enrollment code',
    th: 'รหัสลงทะเบียนไม่ถูกต้อง ถูกใช้ไปแล้ว หรือหมดอายุ',
  },
  enrollmentSignatureRefused: {
    en: 'The enrollment signature does not verify with this key',
    th: 'ตรวจสอบลายมือชื่อการลงทะเบียนด้วยกุญแจนี้ไม่ผ่าน',
  },
  keyEnrolled: { en: 'This key is already enrolled', th: 'กุญแจนี้ลงทะเบียนไว้แล้ว' },

  // --- requests the contract let through, refused by what they name
  tooManyRequests: {
    en: 'Too many requests, try again later',
    th: 'มีคำขอมากเกินไป โปรดลองอีกครั้งภายหลัง',
  },
  bodyHasNul: { en: 'Body contains a NUL character', th: 'ข้อมูลที่ส่งมีอักขระ NUL' },
  bodyTooDeep: (limit: number): Text => ({
    en: `Body is nested deeper than ${limit} levels`,
    th: `ข้อมูลที่ส่งซ้อนกันลึกเกิน ${limit} ชั้น`,
  }),
  bodyForbiddenKey: { en: 'Body contains a forbidden key', th: 'ข้อมูลที่ส่งมีชื่อช่องที่ไม่อนุญาต' },
  bodyNotJson: { en: 'Body is not valid JSON', th: 'ข้อมูลที่ส่งไม่ใช่ JSON ที่ถูกต้อง' },
  bodyCompressed: {
    en: 'A compressed body (Content-Encoding) is not accepted: send the JSON as it is',
    th: 'ไม่รับข้อมูลที่บีบอัด (Content-Encoding) โปรดส่ง JSON ตามปกติโดยไม่บีบอัด',
  },
  bodyNotUtf8: {
    en: 'Body is not valid UTF-8 text: send JSON encoded as UTF-8',
    th: 'ข้อมูลที่ส่งไม่ใช่ข้อความ UTF-8 ที่ถูกต้อง โปรดส่ง JSON ที่เข้ารหัสแบบ UTF-8',
  },
  bodyHasLoneSurrogate: {
    en: 'Body contains a lone surrogate (\\uD800-\\uDFFF without its pair): not a character',
    th: 'ข้อมูลที่ส่งมีอักขระ surrogate ที่ไม่ครบคู่ (\\uD800-\\uDFFF) ซึ่งไม่ใช่อักขระที่ถูกต้อง',
  },
  invalidFilterValue: (path: string): Text => ({
    en: `Invalid filter value for ${path}`,
    th: `ค่าตัวกรอง ${path} ไม่ถูกต้อง`,
  }),
  invalidPair: (name: string, raw: string): Text => ({
    en: `Invalid ${name}: ${raw}`,
    th: `${name} ไม่ถูกต้อง: ${raw}`,
  }),
  unknownFilter: (path: string): Text => ({
    en: `Unknown filter: ${path}`,
    th: `ไม่มีตัวกรองนี้: ${path}`,
  }),
  unknownSearchPath: (path: string): Text => ({
    en: `Unknown filtersLike path: ${path}`,
    th: `ค้นหาในช่องนี้ไม่ได้ (filtersLike): ${path}`,
  }),
  invalidSearchText: { en: 'Invalid search text', th: 'คำค้นหาไม่ถูกต้อง' },
  noTimeRange: { en: 'This list has no time range', th: 'รายการนี้กรองตามช่วงเวลาไม่ได้' },
  invalidSort: (raw: string): Text => ({
    en: `Invalid sort: ${raw}`,
    th: `การเรียงลำดับไม่ถูกต้อง: ${raw}`,
  }),
  unknownView: (view: string): Text => ({
    en: `Unknown view: ${view}`,
    th: `ไม่มีมุมมองนี้: ${view}`,
  }),
  relationTooDeep: (path: string): Text => ({
    en: `Relation path too deep: ${path}`,
    th: `ข้อมูลที่เกี่ยวข้องซ้อนลึกเกินไป: ${path}`,
  }),
  unknownRelation: (path: string): Text => ({
    en: `Unknown relation: ${path}`,
    th: `ไม่มีข้อมูลที่เกี่ยวข้องชื่อนี้: ${path}`,
  }),
  relationsNotHere: (paths: readonly string[]): Text => ({
    en: `Relations not available here: ${paths.join(', ')}`,
    th: `ใช้ข้อมูลที่เกี่ยวข้องเหล่านี้ที่นี่ไม่ได้: ${paths.join(', ')}`,
  }),
  // --- what the database refuses as the client's fault (plugins/errors.ts), naming its constraint or column
  // A value that must be unique and is taken, where the client chose it: the field, in words.
  usernameTaken: {
    en: 'Another user already has this username',
    th: 'มีผู้ใช้อื่นใช้ชื่อผู้ใช้นี้อยู่แล้ว',
  },
  identityLinkedElsewhere: {
    en: 'Another user is already linked to this sign-in identity',
    th: 'บัญชีเข้าสู่ระบบนี้ผูกกับผู้ใช้อื่นอยู่แล้ว',
  },
  patientProfileTaken: {
    en: 'This patient profile already belongs to another user',
    th: 'ข้อมูลผู้ป่วยนี้เป็นของผู้ใช้อื่นอยู่แล้ว',
  },
  hardwareIdentifierTaken: {
    en: 'Another IoT device already has this hardware identifier',
    th: 'มีอุปกรณ์ IoT อื่นใช้รหัสฮาร์ดแวร์นี้อยู่แล้ว',
  },
  deviceHasWorkstation: {
    en: 'This device already belongs to another workstation',
    th: 'อุปกรณ์นี้อยู่กับเวิร์กสเตชันอื่นอยู่แล้ว',
  },
  duplicateValue: (constraint: string): Text => ({
    en: `A record with this value already exists (${constraint})`,
    th: `มีข้อมูลที่ใช้ค่านี้อยู่แล้ว (${constraint})`,
  }),
  /** `column` is empty or ` (column_name)`. */
  referencedRecordMissing: (column: string): Text => ({
    en: `A referenced record does not exist${column}`,
    th: `ไม่พบข้อมูลที่อ้างถึง${column}`,
  }),
  requiredValueMissing: (column: string): Text => ({
    en: `Missing required value${column ? ` for ${column}` : ''}`,
    th: `ขาดค่าที่จำเป็น${column ? `: ${column}` : ''}`,
  }),
  auditNoRelations: { en: 'The audit log has no relations', th: 'บันทึกการใช้งานไม่มีข้อมูลที่เกี่ยวข้องให้ฝัง' },
  documentsNoRelations: { en: 'Documents embed no relations', th: 'เอกสารฝังข้อมูลที่เกี่ยวข้องไม่ได้' },
  unknownLinked: (what: string, field: string): Text => ({
    en: `Unknown ${what}`,
    th: `ไม่พบ${fieldName([field], 'th')}บางรายการที่ระบุ`,
  }),
  unknownUsers: { en: 'Unknown users', th: 'ไม่พบผู้ใช้บางคนที่ระบุ' },
  blockedSigners: {
    en: 'A blocked user cannot be asked to sign',
    th: 'ขอให้ผู้ใช้ที่ถูกระงับลงนามไม่ได้',
  },
  createdByUserRequired: {
    en: 'createdByUser is required',
    th: 'ต้องระบุผู้สร้าง (createdByUser)',
  },
  ownNurse: { en: 'A user cannot be their own nurse', th: 'ผู้ใช้เป็นพยาบาลของตนเองไม่ได้' },
  lastActiveAdmin: {
    en:
      'This is the last active admin: the platform needs one. Make another user an admin before blocking, ' +
      'demoting or deleting this one',
    th:
      'ผู้ใช้นี้เป็นผู้ดูแลระบบคนสุดท้ายที่ใช้งานได้ และระบบต้องมีอย่างน้อยหนึ่งคน ' +
      'โปรดกำหนดผู้ใช้อื่นเป็นผู้ดูแลระบบก่อนระงับ ลดสิทธิ์ หรือลบผู้ใช้นี้',
  },
  noPreferredUsername: {
    en: 'The id token carries no usable preferred_username',
    th: 'id token ไม่มี preferred_username ที่ใช้ได้',
  },
  notAPdf: { en: 'The file is not a PDF', th: 'ไฟล์นี้ไม่ใช่ PDF' },
  notAReadablePdf: { en: 'The file is not a readable PDF', th: 'ไฟล์นี้เป็น PDF ที่อ่านไม่ได้' },

  // --- what the HTTP layer refuses before any route runs (English as Fastify words it)
  routeNotFound: (method: string, path: string): Text => ({
    en: `Route ${method} ${path} not found`,
    th: `ไม่พบ ${method} ${path} บนเซิร์ฟเวอร์นี้`,
  }),
  /** The route's limit in MB, when known. */
  bodyTooLarge: (megabytes?: number): Text => ({
    en: megabytes
      ? `Request body is too large: this request takes at most ${megabytes} MB`
      : 'Request body is too large',
    th: megabytes ? `ข้อมูลที่ส่งมีขนาดใหญ่เกินกำหนด: คำขอนี้รับได้ไม่เกิน ${megabytes} MB` : 'ข้อมูลที่ส่งมีขนาดใหญ่เกินกำหนด',
  }),
  unsupportedMediaType: {
    en: 'Unsupported Media Type: send JSON (application/json), or no body where the request takes none',
    th: 'ไม่รองรับชนิดข้อมูล (Content-Type) ที่ส่งมา โปรดส่งเป็น JSON (application/json) หรือไม่ต้องส่งข้อมูลเมื่อคำขอนั้นไม่รับข้อมูล',
  },
  addressPartTooLong: {
    en: 'A part of the address is too long: no identifier here is longer than 200 characters',
    th: 'ที่อยู่บางส่วนยาวเกินไป ไม่มีรหัสใดในระบบนี้ยาวเกิน 200 ตัวอักษร',
  },
  contentLengthMismatch: {
    en: 'Request body size did not match Content-Length',
    th: 'ขนาดข้อมูลที่ส่งไม่ตรงกับ Content-Length',
  },
  emptyJsonBody: {
    en: "Body cannot be empty when content-type is set to 'application/json'",
    th: 'ข้อมูลที่ส่งว่างเปล่า แต่ระบุ Content-Type เป็น application/json',
  },
  invalidJsonBody: {
    en: "Body is not valid JSON but content-type is set to 'application/json'",
    th: 'ข้อมูลที่ส่งไม่ใช่ JSON ที่ถูกต้อง แต่ระบุ Content-Type เป็น application/json',
  },

  addressUnreadable: {
    en: 'The address cannot be read (invalid encoding)',
    th: 'อ่านที่อยู่ (URL) ของคำขอไม่ได้ เพราะเข้ารหัสไม่ถูกต้อง',
  },
  rateLimited: (after: string): Text => ({
    en: `Rate limit exceeded, retry in ${after}`,
    th: `มีคำขอมากเกินไป โปรดลองอีกครั้งใน ${thaiDuration(after)}`,
  }),
  multipartFieldsLimit: {
    en: 'The form has more fields than it takes: a file and, for an upload, a title',
    th: 'ฟอร์มมีช่องข้อมูลมากเกินไป: รับเพียงไฟล์ และชื่อเอกสารเมื่ออัปโหลด',
  },
  multipartFileTooLarge: { en: 'request file too large', th: 'ไฟล์ที่ส่งมีขนาดใหญ่เกินกำหนด' },
  multipartForbiddenName: {
    en: 'prototype property is not allowed as field name',
    th: 'ใช้ชื่อช่องข้อมูลนี้ไม่ได้ (ชื่อสงวนของระบบ)',
  },
  bodyStalled: (seconds: number): Text => ({
    en: `The request body stopped arriving for ${seconds} seconds`,
    th: `ข้อมูลที่ส่งหยุดส่งมาเป็นเวลา ${seconds} วินาที`,
  }),
  deadlinePassed: {
    en: 'The request took too long to answer: try again shortly',
    th: 'คำขอนี้ใช้เวลานานเกินไป โปรดลองอีกครั้งในอีกสักครู่',
  },

  // --- the build
  authenticatorNotBuilt: {
    en: 'The authenticator is not built: run `npm run build`',
    th: 'ยังไม่ได้สร้างแอปยืนยันตัวตน: โปรดรัน `npm run build`',
  },
  consoleNotBuilt: {
    en: 'The console is not built: run `npm run build`',
    th: 'ยังไม่ได้สร้างหน้าจอควบคุม: โปรดรัน `npm run build`',
  },
} as const;
