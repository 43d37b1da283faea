// What a person reads when a value is refused, in English and Thai: a sentence that names the field by a
// human label ("Last name must be at most 120 characters." / "นามสกุล ต้องยาวไม่เกิน 120 ตัวอักษร"), never the
// schema's own words. Made from a zod issue's code and parameters, so the server (which answers in the
// request's language) and the console read the same catalog. English is also zod's error map (see
// common/validation-messages.ts), so a refusal parsed anywhere reads as English first.
import type { Language } from './languages.ts';
import { enumWord, thaiEnumWords, type EnumGroup } from './enum-texts.ts';
import { keyWords } from '../common/key-words.ts';

/** A zod issue as the error map sees it (with its input) or as a validation error keeps it (without). */
export interface IssueLike {
  code: string;
  path?: readonly PropertyKey[] | undefined;
  input?: unknown;
  expected?: unknown;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: unknown;
  values?: unknown;
  format?: unknown;
  divisor?: unknown;
  keys?: unknown;
}

type Kind = 'string' | 'number' | 'int' | 'bigint' | 'boolean' | 'array' | 'object' | 'date' | 'null';
type Format = 'email' | 'uuid' | 'guid' | 'url' | 'datetime' | 'date' | 'time' | 'ipv4' | 'ipv6';
type Count = number | bigint;

export interface ValidationTexts {
  /** The field when a path names none. */
  theValue: string;
  item: (position: number) => string;
  itemOf: (position: number, list: string) => string;
  required: (field: string) => string;
  /**
   * A list where one value goes: a query parameter given twice (`?limit=1&limit=2`), or a list in a body's
   * field of one value.
   */
  oneValue: (field: string) => string;
  mustBe: (field: string, what: string) => string;
  kinds: Record<Kind, string>;
  formats: Record<Format, string>;
  notEmpty: (field: string) => string;
  minLength: (field: string, min: Count) => string;
  maxLength: (field: string, max: Count) => string;
  minItems: (field: string, min: Count) => string;
  maxItems: (field: string, max: Count) => string;
  atLeast: (field: string, min: Count) => string;
  moreThan: (field: string, min: Count) => string;
  atMost: (field: string, max: Count) => string;
  lessThan: (field: string, max: Count) => string;
  oneOf: (field: string, values: string) => string;
  notInForm: (field: string) => string;
  multipleOf: (field: string, divisor: Count) => string;
  notAccepted: (keys: string[]) => string;
  notValid: (field: string) => string;
  /** The 400's own message when a request does not match its contract. */
  invalidRequest: string;
}

const plural = (n: Count, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;

const en: ValidationTexts = {
  theValue: 'The value',
  item: (position) => `Item ${position}`,
  itemOf: (position, list) => `Item ${position} of ${list.toLowerCase()}`,
  required: (field) => `${field} is required.`,
  oneValue: (field) => `${field} must be one value, not a list.`,
  mustBe: (field, what) => `${field} must be ${what}.`,
  kinds: {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    bigint: 'a whole number',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
    date: 'a date',
    null: 'empty (null)',
  },
  formats: {
    email: 'an email address',
    uuid: 'an identifier (UUID)',
    guid: 'an identifier (UUID)',
    url: 'a web address',
    datetime: 'a date and time such as 2026-11-25T09:00:00Z',
    date: 'a date such as 2026-11-25',
    time: 'a time such as 09:00',
    ipv4: 'an IPv4 address',
    ipv6: 'an IPv6 address',
  },
  notEmpty: (field) => `${field} must not be empty.`,
  minLength: (field, min) => `${field} must be at least ${plural(min, 'character', 'characters')}.`,
  maxLength: (field, max) => `${field} must be at most ${plural(max, 'character', 'characters')}.`,
  minItems: (field, min) => `${field}: add at least ${Number(min) === 1 ? 'one' : min}.`,
  maxItems: (field, max) => `${field} must have at most ${plural(max, 'item', 'items')}.`,
  atLeast: (field, min) => `${field} must be at least ${min}.`,
  moreThan: (field, min) => `${field} must be more than ${min}.`,
  atMost: (field, max) => `${field} must be at most ${max}.`,
  lessThan: (field, max) => `${field} must be less than ${max}.`,
  oneOf: (field, values) => `${field} must be one of: ${values}.`,
  notInForm: (field) => `${field} is not in the expected form.`,
  multipleOf: (field, divisor) => `${field} must be a multiple of ${divisor}.`,
  notAccepted: (keys) =>
    `${keys.length === 1 ? 'This field is' : 'These fields are'} not accepted: ${keys.join(', ')}.`,
  notValid: (field) => `${field} is not valid.`,
  invalidRequest: 'Invalid request',
};

// Thai writes no full stop; a space closes the field's name, so a label left in English still reads apart.
const th: ValidationTexts = {
  theValue: 'ค่านี้',
  item: (position) => `รายการที่ ${position}`,
  itemOf: (position, list) => `รายการที่ ${position} ของ${list}`,
  required: (field) => `ต้องระบุ${field}`,
  oneValue: (field) => `${field} ต้องเป็นค่าเดียว ไม่ใช่รายการ`,
  mustBe: (field, what) => `${field} ต้องเป็น${what}`,
  kinds: {
    string: 'ข้อความ',
    number: 'ตัวเลข',
    int: 'จำนวนเต็ม',
    bigint: 'จำนวนเต็ม',
    boolean: 'ค่าจริงหรือเท็จ (true หรือ false)',
    array: 'รายการ',
    object: 'ชุดข้อมูล',
    date: 'วันที่',
    null: 'ค่าว่าง (null)',
  },
  formats: {
    email: 'ที่อยู่อีเมล',
    uuid: 'รหัสอ้างอิง (UUID)',
    guid: 'รหัสอ้างอิง (UUID)',
    url: 'ที่อยู่เว็บ',
    datetime: 'วันที่และเวลา เช่น 2026-11-25T09:00:00Z',
    date: 'วันที่ เช่น 2026-11-25',
    time: 'เวลา เช่น 09:00',
    ipv4: 'ที่อยู่ IPv4',
    ipv6: 'ที่อยู่ IPv6',
  },
  notEmpty: (field) => `${field} ต้องไม่เว้นว่าง`,
  minLength: (field, min) => `${field} ต้องยาวอย่างน้อย ${min} ตัวอักษร`,
  maxLength: (field, max) => `${field} ต้องยาวไม่เกิน ${max} ตัวอักษร`,
  minItems: (field, min) => `ต้องเพิ่ม${field}อย่างน้อย ${min} รายการ`,
  maxItems: (field, max) => `${field} ต้องมีไม่เกิน ${max} รายการ`,
  atLeast: (field, min) => `${field} ต้องไม่น้อยกว่า ${min}`,
  moreThan: (field, min) => `${field} ต้องมากกว่า ${min}`,
  atMost: (field, max) => `${field} ต้องไม่เกิน ${max}`,
  lessThan: (field, max) => `${field} ต้องน้อยกว่า ${max}`,
  oneOf: (field, values) => `${field} ต้องเป็นค่าใดค่าหนึ่งต่อไปนี้: ${values}`,
  notInForm: (field) => `${field} มีรูปแบบไม่ถูกต้อง`,
  multipleOf: (field, divisor) => `${field} ต้องหารด้วย ${divisor} ลงตัว`,
  notAccepted: (keys) => `ไม่รับช่องข้อมูล${keys.length === 1 ? 'นี้' : 'เหล่านี้'}: ${keys.join(', ')}`,
  notValid: (field) => `${field} ไม่ถูกต้อง`,
  invalidRequest: 'คำขอไม่ถูกต้อง: โปรดตรวจสอบข้อมูลที่ส่ง',
};

export const validationTexts: Record<Language, ValidationTexts> = { en, th };

/**
 * Fields by their key, wherever they sit in a path. English defaults to the humanised key ("firstName" →
 * "First name"), so only a key that reads badly that way names its English label.
 */
export const fieldLabels: Record<string, { th: string; en?: string }> = {
  id: { th: 'รหัส' },
  ids: { th: 'รหัส' },
  // Keys of what a device or a sign-in identity sends about itself, shown on their detail pages.
  userId: { th: 'รหัสผู้ใช้' },
  firmwareVersion: { th: 'เวอร์ชันเฟิร์มแวร์' },
  pairedWith: { th: 'จับคู่กับ' },
  timeZone: { th: 'เขตเวลา' },
  title: { th: 'ชื่อ' },
  name: { th: 'ชื่อ' },
  firstName: { th: 'ชื่อ' },
  lastName: { th: 'นามสกุล' },
  localizedFirstName: { th: 'ชื่อ (ภาษาท้องถิ่น)' },
  localizedLastName: { th: 'นามสกุล (ภาษาท้องถิ่น)' },
  username: { th: 'ชื่อผู้ใช้' },
  email: { th: 'อีเมล' },
  phoneNumber: { th: 'หมายเลขโทรศัพท์' },
  gender: { th: 'เพศ' },
  language: { th: 'ภาษา' },
  role: { th: 'บทบาท' },
  roles: { th: 'บทบาท' },
  localRoles: { th: 'บทบาทในศูนย์' },
  description: { th: 'คำอธิบาย' },
  message: { th: 'ข้อความ' },
  notes: { th: 'หมายเหตุ' },
  reason: { th: 'เหตุผล' },
  keptForSeconds: { th: 'เวลาที่เก็บรายการไว้ในเครื่อง (วินาที)' },
  expectedStatus: { th: 'สถานะตอนที่ทำรายการ' },
  status: { th: 'สถานะ' },
  kind: { th: 'ประเภท' },
  type: { th: 'ประเภท' },
  severity: { th: 'ความรุนแรง' },
  model: { th: 'รุ่น' },
  code: { th: 'รหัส' },
  value: { th: 'ค่า' },
  data: { th: 'ข้อมูล' },
  file: { th: 'ไฟล์' },
  size: { th: 'ขนาด' },
  search: { th: 'คำค้นหา' },
  sort: { th: 'การเรียงลำดับ' },
  limit: { th: 'จำนวนสูงสุด' },
  offset: { th: 'ลำดับเริ่มต้น' },
  from: { th: 'เวลาเริ่มต้น' },
  to: { th: 'เวลาสิ้นสุด' },
  buckets: { th: 'จำนวนช่วงเวลา' },
  view: { th: 'มุมมอง' },
  timestamp: { th: 'เวลา' },
  takenAt: { th: 'เวลาที่วัด' },
  isActive: { th: 'สถานะใช้งาน' },
  isEnabled: { th: 'การเปิดใช้งาน' },
  isBlocked: { th: 'การระงับ' },
  location: { th: 'สถานที่' },
  address: { th: 'ที่อยู่' },
  street: { th: 'ถนน' },
  houseNumber: { th: 'บ้านเลขที่' },
  district: { th: 'แขวง/ตำบล' },
  city: { th: 'เขต/อำเภอ' },
  county: { th: 'จังหวัด' },
  postalCode: { th: 'รหัสไปรษณีย์' },
  country: { th: 'ประเทศ' },
  geo: { th: 'พิกัด' },
  lat: { th: 'ละติจูด', en: 'Latitude' },
  lng: { th: 'ลองจิจูด', en: 'Longitude' },
  content: { th: 'รายการยา' },
  commands: { th: 'คำสั่ง' },
  purpose: { th: 'วัตถุประสงค์' },
  items: { th: 'รายการ' },
  quantity: { th: 'จำนวน' },
  unit: { th: 'หน่วย' },
  strength: { th: 'ความแรง' },
  form: { th: 'รูปแบบยา' },
  dosage: { th: 'วิธีใช้' },
  recipient: { th: 'ผู้รับยา' },
  issuer: { th: 'ผู้สั่งยา' },
  supplier: { th: 'ร้านยา' },
  shipper: { th: 'ผู้จัดส่ง' },
  nurse: { th: 'พยาบาล' },
  pickupByNurse: { th: 'พยาบาลเป็นผู้รับยา' },
  deliveryAddress: { th: 'ที่อยู่จัดส่ง' },
  pickupAddress: { th: 'ที่อยู่รับยา' },
  emergencyContacts: { th: 'ผู้ติดต่อกรณีฉุกเฉิน' },
  identityDocumentType: { th: 'ประเภทเอกสารแสดงตน' },
  identityDocumentNumber: { th: 'เลขที่เอกสารแสดงตน' },
  identityDocumentIssueDate: { th: 'วันที่ออกเอกสารแสดงตน' },
  identityDocumentExpiryDate: { th: 'วันหมดอายุของเอกสารแสดงตน' },
  identityDocumentIsValidIndefinitely: { th: 'เอกสารแสดงตนไม่มีวันหมดอายุ' },
  identityAssuranceLevel: { th: 'ระดับการยืนยันตัวตน' },
  dateOfBirth: { th: 'วันเกิด' },
  additionalInfo: { th: 'ข้อมูลเพิ่มเติม' },
  isVerified: { th: 'การยืนยันตัวตน' },
  registrationStatus: { th: 'สถานะการลงทะเบียน' },
  registrationCompleted: { th: 'การลงทะเบียนเสร็จสมบูรณ์' },
  employees: { th: 'พนักงาน' },
  employers: { th: 'หน่วยงานต้นสังกัด' },
  watchers: { th: 'ผู้ติดตาม' },
  assignedNurses: { th: 'พยาบาลที่ดูแล' },
  createdByUser: { th: 'ผู้สร้าง' },
  relations: { th: 'ข้อมูลที่เกี่ยวข้อง' },
  devices: { th: 'อุปกรณ์' },
  filtersLike: { th: 'คำค้นหา' },
  commandCenter: { th: 'ศูนย์สั่งการ' },
  device: { th: 'อุปกรณ์' },
  iotDevice: { th: 'อุปกรณ์ IoT', en: 'IoT device' },
  hardwareIdentifier: { th: 'รหัสฮาร์ดแวร์' },
  serialNumber: { th: 'หมายเลขเครื่อง' },
  trustLevel: { th: 'ระดับความน่าเชื่อถือ' },
  connectionSecret: { th: 'รหัสลับการเชื่อมต่อ' },
  closingData: { th: 'ข้อมูลการปิดการแจ้งเตือน' },
  bindingMessage: { th: 'รหัสยืนยันบนหน้าจอ' },
  token: { th: 'โทเค็น' },
};

/** A key's label; `nurseId` reads as `nurse` when only that is known. */
function labelOf(key: string, language: Language): string | undefined {
  const known = fieldLabels[key] ?? (/.Ids?$/.test(key) ? fieldLabels[key.replace(/Ids?$/, '')] : undefined);
  if (language === 'th' && known) return known.th;
  return known?.en ?? (keyWords(key) || undefined);
}

/** Keys that name a record's own field as well as a part of an address: bare, "Title" would say neither. */
const ambiguousInAddress = new Set(['title', 'name', 'type']);
const isAddressKey = (key: PropertyKey | undefined): key is string =>
  typeof key === 'string' && /(^a|A)ddress$/.test(key);

/**
 * `lastName` → `Last name` / `นามสกุล`; an index names the list's item; nested fields go by their own key, but
 * for a part of an address whose bare name would be the record's own (`address.title`, `address.0.title`),
 * which is named with its address: "Address title" / "ชื่อที่อยู่".
 */
export function fieldName(path: readonly PropertyKey[] | undefined, language: Language = 'en'): string {
  const texts = validationTexts[language];
  const keys = (path ?? []).filter((key) => typeof key === 'string' || typeof key === 'number');
  const last = keys.at(-1);
  if (last === undefined) return texts.theValue;
  if (typeof last === 'number') {
    const list = keys.at(-2);
    const listName = typeof list === 'string' ? labelOf(list, language) : undefined;
    return listName ? texts.itemOf(last + 1, listName) : texts.item(last + 1);
  }
  const own = labelOf(last, language) ?? texts.theValue;
  // The address holding the part: its key, past the index of a list of addresses.
  const parent = keys.slice(0, -1).findLast((key) => typeof key === 'string');
  if (ambiguousInAddress.has(last) && isAddressKey(parent)) {
    const address = labelOf(parent, language);
    if (address) return language === 'th' ? `${own}${address}` : `${address} ${own.toLowerCase()}`;
  }
  return own;
}

const isCount = (value: unknown): value is Count => typeof value === 'number' || typeof value === 'bigint';

/**
 * The values an enumeration takes, for its refusal: as they must be sent, and in Thai with the word people read
 * for each ("ร้านยา (pharmacy)"), from the enumeration table holding them all.
 */
function valuesToName(values: readonly unknown[], language: Language): string {
  const sent = values.map(String);
  if (language !== 'th') return sent.join(', ');
  const group = (Object.keys(thaiEnumWords) as EnumGroup[]).find((name) =>
    sent.every((value) => Object.hasOwn(thaiEnumWords[name], value)),
  );
  return sent.map((value) => (group ? `${enumWord(group, value, 'th')} (${value})` : value)).join(', ');
}

/**
 * What was given, as far as the sentence for a refused value goes: nothing (no value, or the empty one a cleared
 * form control sends: null, ''), a list where one value goes (a query parameter given twice, or a list in a
 * body's field of one value), or a value.
 */
export type Given = 'missing' | 'repeated' | 'value';

function givenOf(issue: IssueLike): Given {
  if (!('input' in issue)) return 'value';
  const { input } = issue;
  if (input === undefined || input === null || input === '') return 'missing';
  return Array.isArray(input) && issue.expected !== 'array' ? 'repeated' : 'value';
}

/**
 * The sentence for an issue, from its code and parameters; undefined for a code that says nothing of its own
 * (`custom`: a refinement's message is the schema's). Without the issue's input (a validation error keeps
 * none), `given` says what the value was. `field` names the value as the reader sees it (a form's own label),
 * by default the contract's name for the issue's path.
 */
export function describeIssue(
  issue: IssueLike,
  language: Language,
  given: Given = givenOf(issue),
  field = fieldName(issue.path, language),
): string | undefined {
  const texts = validationTexts[language];
  switch (issue.code) {
    case 'invalid_type': {
      if (given === 'missing') return texts.required(field);
      if (given === 'repeated') return texts.oneValue(field);
      const expected = String(issue.expected);
      return texts.mustBe(field, texts.kinds[expected as Kind] ?? expected);
    }
    case 'too_small': {
      if (!isCount(issue.minimum)) return texts.notValid(field);
      const min = issue.minimum;
      if (issue.origin === 'string')
        return Number(min) <= 1 ? texts.notEmpty(field) : texts.minLength(field, min);
      if (issue.origin === 'array' || issue.origin === 'set') return texts.minItems(field, min);
      return issue.inclusive === false ? texts.moreThan(field, min) : texts.atLeast(field, min);
    }
    case 'too_big': {
      if (!isCount(issue.maximum)) return texts.notValid(field);
      const max = issue.maximum;
      if (issue.origin === 'string') return texts.maxLength(field, max);
      if (issue.origin === 'array' || issue.origin === 'set') return texts.maxItems(field, max);
      return issue.inclusive === false ? texts.lessThan(field, max) : texts.atMost(field, max);
    }
    case 'invalid_value':
      if (given === 'missing') return texts.required(field);
      if (given === 'repeated') return texts.oneValue(field);
      return Array.isArray(issue.values)
        ? texts.oneOf(field, valuesToName(issue.values, language))
        : texts.notValid(field);
    case 'invalid_format': {
      const format = texts.formats[issue.format as Format] as string | undefined;
      return format ? texts.mustBe(field, format) : texts.notInForm(field);
    }
    case 'not_multiple_of':
      return isCount(issue.divisor) ? texts.multipleOf(field, issue.divisor) : texts.notValid(field);
    case 'unrecognized_keys':
      return texts.notAccepted(Array.isArray(issue.keys) ? issue.keys.map(String) : []);
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return texts.notValid(field);
    default:
      return undefined;
  }
}

/**
 * Thai for the messages contracts and services set themselves (in English, which stays as written): each
 * names its field. Keyed by the English text; a test fails when a contract's literal message has no entry.
 */
export const authoredMessages: Record<string, { th: (field: string) => string }> = {
  Required: { th: (field) => `ต้องระบุ${field}` },
  'Must not contain NUL characters': { th: (field) => `${field} ต้องไม่มีอักขระ NUL` },
  'Must be someone other than the issuer': { th: (field) => `${field} ต้องไม่ใช่ผู้ออกใบสั่งยา` },
  'Must be someone other than the issuer and the recipient': {
    th: (field) => `${field} ต้องไม่ใช่ผู้ออกใบสั่งยาหรือผู้รับยา`,
  },
  'Must not contain control or text-direction characters': {
    th: (field) => `${field} ต้องไม่มีอักขระควบคุมหรืออักขระกำหนดทิศทางข้อความ`,
  },
  'Keys must not contain NUL characters': { th: (field) => `ชื่อช่องใน${field} ต้องไม่มีอักขระ NUL` },
  'NUL not allowed': { th: (field) => `${field} ต้องไม่มีอักขระ NUL` },
  'Must be a uuid': { th: (field) => `${field} ต้องเป็นรหัสอ้างอิง (UUID)` },
  'Must be a number': { th: (field) => `${field} ต้องเป็นตัวเลข` },
  'Must be a whole number': { th: (field) => `${field} ต้องเป็นจำนวนเต็ม` },
  'Must be true or false': { th: (field) => `${field} ต้องเป็น true หรือ false` },
  'Must be en or th': { th: (field) => `${field} ต้องเป็น en (อังกฤษ) หรือ th (ไทย)` },
  'Must be a UUID (a new one for each action, the same one when sending that action again)': {
    th: (field) => `${field} ต้องเป็น UUID (ใหม่ทุกครั้งที่ทำรายการ และใช้ค่าเดิมเมื่อส่งรายการเดิมซ้ำ)`,
  },
  'Already used for another request': { th: (field) => `${field} นี้ถูกใช้กับคำขออื่นไปแล้ว` },
  'Only for actions without a signature': { th: (field) => `${field} ใช้ได้เฉพาะรายการที่ไม่ต้องลงนาม` },
  'Only for users': { th: (field) => `${field} ใช้ได้เฉพาะผู้ใช้ที่ลงชื่อเข้าใช้` },
  'Must be a view name': { th: (field) => `${field} ต้องเป็นชื่อมุมมอง (ตัวอักษร a-z และ -)` },
  'Must be a time zone such as Asia/Bangkok': { th: (field) => `${field} ต้องเป็นเขตเวลา เช่น Asia/Bangkok` },
  'Must be a signed JWT': { th: (field) => `${field} ต้องเป็นโทเค็น JWT ที่ลงนามแล้ว` },
  'Must be a device token': { th: (field) => `${field} ต้องเป็นโทเค็นของอุปกรณ์` },
  'Must be a phone id (base64url)': { th: (field) => `${field} ต้องเป็นรหัสโทรศัพท์ (base64url)` },
  'Must be a phone number: digits, grouped by spaces, dashes, dots or brackets if you like, with a + in front and an extension (ext. 12) if needed':
    {
      th: (field) =>
        `${field} ต้องเป็นหมายเลขโทรศัพท์: ตัวเลข คั่นด้วยเว้นวรรค ขีด จุด หรือวงเล็บได้ มี + นำหน้า และเบอร์ต่อ (ต่อ 12) ได้ตามต้องการ`,
    },
  'ping needs a host name or address after it, such as ping 10.0.0.1': {
    th: (field) => `${field}: คำสั่ง ping ต้องตามด้วยชื่อโฮสต์หรือที่อยู่ เช่น ping 10.0.0.1`,
  },
  'notify needs the text to show after it, such as notify Take your tablets': {
    th: (field) => `${field}: คำสั่ง notify ต้องตามด้วยข้อความที่จะแสดง เช่น notify กรุณาทานยา`,
  },
  'Must look like name@domain': { th: (field) => `${field} ต้องอยู่ในรูปแบบ ชื่อ@โดเมน` },
  'Needs a street, a city or a map position': {
    th: (field) => `${field} ต้องมีถนน เขต/อำเภอ หรือตำแหน่งบนแผนที่อย่างน้อยหนึ่งอย่าง`,
  },
  'Must be a date YYYY-MM-DD': { th: (field) => `${field} ต้องเป็นวันที่แบบ YYYY-MM-DD (ปี ค.ศ.)` },
  'Must be a time in milliseconds': { th: (field) => `${field} ต้องเป็นเวลาแบบมิลลิวินาที` },
  'Must be after from': { th: (field) => `${field} ต้องอยู่หลังเวลาเริ่มต้น (from)` },
  'Must be comma-separated millisecond timestamps': {
    th: (field) => `${field} ต้องเป็นเวลาแบบมิลลิวินาที คั่นด้วยจุลภาค`,
  },
  'Must be one line, without control characters': {
    th: (field) => `${field} ต้องเป็นข้อความบรรทัดเดียว ไม่มีอักขระควบคุม`,
  },
  'At most 50 fields': { th: (field) => `${field} มีได้ไม่เกิน 50 ช่อง` },
  'At most 4 KB of fields': { th: (field) => `${field} มีข้อมูลรวมกันได้ไม่เกิน 4 KB` },
  'Must not be in the future': { th: (field) => `${field} ต้องไม่เป็นวันที่ในอนาคต` },
  'Must not be earlier than 1900-01-01': { th: (field) => `${field} ต้องไม่ก่อนวันที่ 1900-01-01` },
  'Must not be before the issue date': { th: (field) => `${field} ต้องไม่ก่อนวันที่ออกเอกสาร` },
  'Must not be earlier than 2000-01-01': { th: (field) => `${field} ต้องไม่ก่อนวันที่ 2000-01-01` },
  'Must not be before startedAt': { th: (field) => `${field} ต้องไม่ก่อนเวลาเริ่ม (startedAt)` },
  'Must be between 1970 and 9999': { th: (field) => `${field} ต้องอยู่ระหว่างปี ค.ศ. 1970 ถึง 9999` },
  'At most 50 values': { th: (field) => `${field} มีได้ไม่เกิน 50 ค่า` },
  'Takes no body: send none, or {}': {
    th: (field) => `${field}: คำขอนี้ไม่รับข้อมูลในเนื้อความ (body) ไม่ต้องส่ง หรือส่ง {}`,
  },
  'At most 4 KB of fields besides the note': {
    th: (field) => `${field} มีข้อมูลอื่นนอกจากบันทึกรวมกันได้ไม่เกิน 4 KB`,
  },
  "Must not be earlier than 2000-01-01 (the device's clock is not set)": {
    th: (field) => `${field} ต้องไม่ก่อนวันที่ 2000-01-01 (ยังไม่ได้ตั้งนาฬิกาของอุปกรณ์)`,
  },
  'Must not be later than now (5 minutes of clock difference are allowed)': {
    th: (field) => `${field} ต้องไม่เป็นเวลาในอนาคต (นาฬิกาคลาดเคลื่อนได้ไม่เกิน 5 นาที)`,
  },
  'Must be C, F or K (°C, °F, Celsius, Fahrenheit and Kelvin are read too)': {
    th: (field) => `${field} ต้องเป็น C, F หรือ K (รับ °C, °F, Celsius, Fahrenheit และ Kelvin ด้วย)`,
  },
  'Must not be below absolute zero': { th: (field) => `${field} ต้องไม่ต่ำกว่าศูนย์สัมบูรณ์` },
  'Must not be below the diastolic pressure (dias)': {
    th: (field) => `${field} ต้องไม่ต่ำกว่าความดันตัวล่าง (dias)`,
  },
  'At least one reading': { th: (field) => `${field} ต้องมีค่าที่วัดได้อย่างน้อยหนึ่งค่า` },
  'At least one item is required': { th: (field) => `${field} ต้องมีอย่างน้อยหนึ่งรายการ` },
  'Required when a nurse picks it up': { th: (field) => `ต้องระบุ${field} เมื่อพยาบาลเป็นผู้รับยา` },
  'Required unless a nurse picks it up': {
    th: (field) => `ต้องระบุ${field} เว้นแต่พยาบาลเป็นผู้รับยา`,
  },
  'Required when the trust level is trusted': {
    th: (field) => `ต้องระบุ${field} เมื่อระดับความน่าเชื่อถือเป็น trusted`,
  },
  'Required when a connection secret is given': {
    th: (field) => `ต้องระบุ${field} เมื่อให้รหัสลับการเชื่อมต่อ`,
  },
  'Required when closing an alert': { th: (field) => `ต้องระบุ${field} เมื่อปิดการแจ้งเตือน` },
  'Only given when closing an alert': { th: (field) => `${field} ใช้ได้เฉพาะเมื่อปิดการแจ้งเตือน` },
  'The status changes only through the actions: POST /api/prescriptions/{id}/<action>': {
    th: (field) => `${field} เปลี่ยนได้ผ่านคำสั่งเท่านั้น: POST /api/prescriptions/{id}/<action>`,
  },
  'No user with this id': { th: (field) => `${field}: ไม่มีผู้ใช้ที่มีรหัสนี้` },
  'No service provider with this id': { th: (field) => `${field}: ไม่มีผู้ให้บริการที่มีรหัสนี้` },
  'The service provider is disabled': { th: (field) => `${field}: ผู้ให้บริการนี้ถูกปิดใช้งาน` },
  'Not accepted': { th: (field) => `ไม่รับ${field}` },
  'Forbidden key': { th: (field) => `ไม่อนุญาตชื่อช่อง${field}` },
  'Must not contain the user itself': { th: (field) => `${field} ต้องไม่มีผู้ใช้คนนี้เอง` },
  'Unexpected file': { th: (field) => `${field}: ไม่ได้คาดว่าจะมีไฟล์ในช่องนี้` },
  'Required: sign in once or name the creating user': {
    th: (field) => `ต้องระบุ${field}: เข้าสู่ระบบหนึ่งครั้งก่อน หรือระบุผู้ใช้ที่สร้าง`,
  },
  'The caller has no user record: sign in once first': {
    th: (field) => `${field}: ผู้เรียกยังไม่มีบัญชีผู้ใช้ โปรดเข้าสู่ระบบหนึ่งครั้งก่อน`,
  },
  'No user record for the caller': { th: (field) => `${field}: ผู้เรียกยังไม่มีบัญชีผู้ใช้` },
  'Send isActive false with it to close the alert': {
    th: (field) => `${field}: ส่ง isActive เป็น false พร้อมกันเพื่อปิดการแจ้งเตือน`,
  },
  'At most one device unless allowMultipleDeviceRelationships is true': {
    th: (field) => `${field} มีได้ไม่เกินหนึ่งเครื่อง เว้นแต่ allowMultipleDeviceRelationships เป็น true`,
  },
  'relations are not supported here': { th: (field) => `${field}: ใช้ relations ที่นี่ไม่ได้` },
  'from and to are not supported here': { th: (field) => `${field}: ใช้ from และ to ที่นี่ไม่ได้` },
  'No relation can be embedded in documents': {
    th: (field) => `${field}: เอกสารฝังข้อมูลที่เกี่ยวข้องไม่ได้`,
  },
  'This list has no other views': { th: (field) => `${field}: รายการนี้ไม่มีมุมมองอื่น` },
  'Only relations of the record itself': {
    th: (field) => `${field}: ใช้ได้เฉพาะข้อมูลที่เกี่ยวข้องกับรายการนี้โดยตรง`,
  },
};

/** Authored messages that carry a value of their own ("No user with id …"). */
const authoredPatterns: [RegExp, (field: string, ...values: string[]) => string][] = [
  [/^No user with id (.+)$/, (field, ids = '') => `${field}: ไม่มีผู้ใช้ที่มีรหัส ${ids}`],
  [/^One of (.+)$/, (field, values = '') => `${field} ต้องเป็นค่าใดค่าหนึ่งต่อไปนี้: ${values}`],
  [
    /^Must be a service provider of type (.+), not (.+)$/,
    (field, wanted = '', actual = '') => `${field} ต้องเป็นผู้ให้บริการประเภท ${wanted} ไม่ใช่ ${actual}`,
  ],
];

/**
 * A refusal's message in a language. English is the message as parsed (zod's error map made it, or the
 * schema set it). Thai comes from the catalog of authored messages, else from the issue's code and
 * parameters, else the field is named as not valid, followed by the untranslated words.
 *
 * `field`, when given, is the name the reader sees for the value (a form's label: "Patient" where the contract
 * says `recipient`), and replaces the contract's name in a sentence made from the issue; a schema's own words
 * stay as they are.
 */
export function localizeIssue(
  issue: IssueLike & { message: string },
  language: Language,
  field?: string,
): string {
  // A missing value, a repeated one and a wrong one share the code; the English sentence the error map made
  // tells which.
  const given = (['missing', 'repeated', 'value'] as const).find(
    (candidate) => describeIssue(issue, 'en', candidate) === issue.message,
  );
  const made = given !== undefined;
  if (language === 'en') {
    // A bare "Required" a schema set says which value, as the error map's sentence for a missing one does.
    if (issue.message === 'Required')
      return validationTexts.en.required(field ?? fieldName(issue.path, 'en'));
    return field !== undefined && made
      ? (describeIssue(issue, 'en', given, field) ?? issue.message)
      : issue.message;
  }
  const named = field ?? fieldName(issue.path, language);
  const authored = authoredMessages[issue.message];
  if (authored) return authored.th(named);
  for (const [pattern, sentence] of authoredPatterns) {
    const match = pattern.exec(issue.message);
    if (match) return sentence(named, ...match.slice(1));
  }
  const described = describeIssue(issue, language, given ?? 'value', named);
  if (described) return described;
  // A refinement's own words nobody translated yet: the field named in the reader's language, then them.
  return `${validationTexts[language].notValid(named)}: ${issue.message}`;
}
