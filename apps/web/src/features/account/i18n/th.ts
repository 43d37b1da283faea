// ภาษาไทยของหน้าบัญชี (namespace `account`): the same keys as en.ts.
import type { Translation } from '@/lib/i18n/translation.ts';
import type account from './en.ts';

const th: Translation<typeof account> = {
  fields: {
    firstName: 'ชื่อ',
    lastName: 'นามสกุล',
    username: 'ชื่อผู้ใช้',
    email: 'อีเมล',
    phone: 'โทรศัพท์',
    identityAssuranceLevel: 'ระดับความน่าเชื่อถือของการยืนยันตัวตน',
    roles: 'บทบาท',
    previousSignIn: 'เข้าสู่ระบบครั้งก่อน',
  },
  assurance: {
    low: 'ต่ำ',
    substantial: 'ปานกลาง',
    high: 'สูง',
  },
  notAvailable: 'ไม่มีข้อมูล',
  noSignIn: 'ไม่มีก่อนครั้งนี้',
  loading: 'กำลังโหลดข้อมูลบัญชี',
  tryAgain: 'ลองอีกครั้ง',
  whereYouWork: 'ส่วนงานของคุณ',
};

export default th;
