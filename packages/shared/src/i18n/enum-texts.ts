// Enumeration values as people read them, in one place for the server (CSV exports) and the console (list
// cells, filters, forms, detail pages). English reads the value as words (`picked_up` → `picked up`), as lists
// and exports always have, acronyms as they are written (`ble` → `Bluetooth (BLE)`); Thai has a word for every value, typed against the enumerations, so a value added
// to common/enums.ts without its Thai fails `tsc`. No zod and no catalog machinery: a plain table any reader
// can import, and only the admin screens and the server do (decision 047).
import type {
  AlertSeverity,
  AssuranceLevel,
  ConnectionType,
  DeviceRole,
  Gender,
  GlobalRole,
  IdentityDocumentType,
  IotDataType,
  LocalUserRole,
  PatientStatus,
  PrescriptionStatus,
  ProcessStatus,
  RegistrationStatus,
  ServiceProviderType,
  TrustLevel,
} from '../common/enums.ts';
import type { Language } from './language-tags.ts';

type Words<Value extends string> = Readonly<Record<Value, string>>;

/** Every enumeration shown to people, by the name screens and columns look it up under. */
export interface EnumWords {
  /** Global and local roles of users. */
  role: Words<GlobalRole | LocalUserRole>;
  deviceRole: Words<DeviceRole>;
  patientStatus: Words<PatientStatus>;
  registrationStatus: Words<RegistrationStatus>;
  gender: Words<Gender>;
  identityDocumentType: Words<IdentityDocumentType>;
  connectionType: Words<ConnectionType>;
  trustLevel: Words<TrustLevel>;
  assuranceLevel: Words<AssuranceLevel>;
  iotDataType: Words<IotDataType>;
  serviceProviderType: Words<ServiceProviderType>;
  /** A device job's status: English keeps the runner protocol's capitals (`TIMED_OUT`). */
  jobStatus: Words<ProcessStatus>;
  prescriptionStatus: Words<PrescriptionStatus>;
  alertSeverity: Words<AlertSeverity>;
}

export type EnumGroup = keyof EnumWords;

export const thaiEnumWords: EnumWords = {
  role: {
    admin: 'ผู้ดูแลระบบ',
    master: 'ผู้ดูแลระบบสูงสุด',
    public: 'ผู้ใช้ทั่วไป',
    patient: 'ผู้ป่วย',
    caregiver: 'ผู้ดูแล',
    nurse: 'พยาบาล',
    doctor: 'แพทย์',
    courier: 'ผู้จัดส่ง',
    pharmacist: 'เภสัชกร',
    supervisor: 'หัวหน้างาน',
    application_admin: 'ผู้ดูแลแอปพลิเคชัน',
    none: 'ไม่มี',
  },
  deviceRole: {
    workstation: 'สถานีงาน',
    monitoring_workstation: 'สถานีเฝ้าติดตาม',
    supervisor_workstation: 'สถานีหัวหน้างาน',
    patient_terminal: 'เครื่องปลายทางผู้ป่วย',
    screen_workstation: 'สถานีจอแสดงผล',
    none: 'ไม่มี',
  },
  patientStatus: {
    enrollment: 'กำลังลงทะเบียน',
    enrolled: 'ลงทะเบียนแล้ว',
    discharged: 'จำหน่ายแล้ว',
  },
  registrationStatus: {
    registered: 'ลงทะเบียนแล้ว',
    pending: 'รอดำเนินการ',
    completed: 'เสร็จสมบูรณ์',
  },
  gender: {
    female: 'หญิง',
    male: 'ชาย',
    other: 'อื่น ๆ',
    unspecified: 'ไม่ระบุ',
  },
  identityDocumentType: {
    passport: 'หนังสือเดินทาง',
    national_id: 'บัตรประจำตัวประชาชน',
    driving_license: 'ใบขับขี่',
    none: 'ไม่มี',
  },
  connectionType: {
    unknown: 'ไม่ทราบ',
    ble: 'บลูทูธ (BLE)',
    wifi: 'ไวไฟ (Wi-Fi)',
    cellular: 'เครือข่ายมือถือ',
    usb: 'สาย USB',
  },
  trustLevel: {
    untrusted: 'ยังไม่เชื่อถือ',
    verified: 'ยืนยันแล้ว',
    trusted: 'เชื่อถือได้',
  },
  assuranceLevel: {
    low: 'ต่ำ',
    substantial: 'ปานกลาง',
    high: 'สูง',
  },
  iotDataType: {
    battery: 'แบตเตอรี่',
    heart_rate: 'อัตราการเต้นของหัวใจ',
    temperature: 'อุณหภูมิ',
    pressure: 'ความดัน',
    blood_pressure: 'ความดันโลหิต',
    alert: 'การแจ้งเตือน',
  },
  serviceProviderType: {
    pharmacy: 'ร้านยา',
    courier: 'บริการจัดส่ง',
    nurse: 'บริการพยาบาล',
  },
  jobStatus: {
    NEW: 'ใหม่',
    ACCEPTED: 'รับงานแล้ว',
    RUNNING: 'กำลังทำงาน',
    SUCCEEDED: 'สำเร็จ',
    FAILED: 'ล้มเหลว',
    CANCELLED: 'ยกเลิกแล้ว',
    TIMED_OUT: 'หมดเวลา',
  },
  prescriptionStatus: {
    new: 'ใหม่',
    issued: 'ออกใบสั่งยาแล้ว',
    waiting: 'รอจัดยา',
    ready: 'พร้อมรับยา',
    picked_up: 'รับยาแล้ว',
    delivered: 'ส่งถึงแล้ว',
    on_hold: 'พักไว้',
    returned: 'ส่งคืน',
  },
  alertSeverity: {
    info: 'แจ้งเพื่อทราบ',
    warning: 'เฝ้าระวัง',
    critical: 'วิกฤต',
  },
};

const raw = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/**
 * One value of an enumeration in a language: Thai's word where it has one; otherwise (English, or a value this
 * table does not know, such as one a newer server sends) the value as words, `picked_up` → `picked up`.
 */
/**
 * English values that are acronyms, not words: as people write them ("ble" read as a typo in the IoT list).
 */
const englishSpellings: Partial<Record<EnumGroup, Readonly<Record<string, string>>>> = {
  connectionType: { ble: 'Bluetooth (BLE)', wifi: 'Wi-Fi', usb: 'USB' },
};

export function enumWord(group: EnumGroup, value: unknown, language: Language = 'en'): string {
  const text = raw(value);
  if (!text) return '';
  const words: Readonly<Record<string, string>> | undefined =
    language === 'th' ? thaiEnumWords[group] : englishSpellings[group];
  if (words && Object.hasOwn(words, text)) return words[text]!;
  return group === 'jobStatus' ? text : text.replaceAll('_', ' ');
}
