import type { Translation } from '@/lib/i18n/translation.ts';
import type auth from './en.ts';

const th: Translation<typeof auth> = {
  panel: 'เข้าสู่ระบบ',
  tabs: { qr: 'คิวอาร์โค้ด', identifier: 'รหัสผู้ใช้' },
  expiresIn: 'คำขอจะหมดอายุใน {{seconds}} วินาที',
  compareCode: 'ตรวจสอบว่าโทรศัพท์ของคุณแสดงรหัสเดียวกันนี้:',
  failed: 'เข้าสู่ระบบไม่สำเร็จ',
  tryAgain: 'ลองอีกครั้ง',
  failure: {
    denied: 'การเข้าสู่ระบบถูกปฏิเสธบนโทรศัพท์',
    registrationFailed: 'ลงทะเบียนการเข้าสู่ระบบกับเซิร์ฟเวอร์แอปพลิเคชันไม่สำเร็จ',
    startFailed: 'เริ่มการเข้าสู่ระบบไม่สำเร็จ โปรดลองอีกครั้ง',
    offline: 'การเข้าสู่ระบบต้องใช้อินเทอร์เน็ต โปรดเชื่อมต่อแล้วลองอีกครั้ง',
  },
  qr: {
    intro: 'เปิดแอป Careplane บนโทรศัพท์ แล้วสแกนโค้ดเพื่อเข้าสู่ระบบ',
    show: 'แสดงคิวอาร์โค้ด',
    alt: 'คิวอาร์โค้ดสำหรับสแกนด้วยแอป Careplane',
    approve: 'โปรดอนุมัติการเข้าสู่ระบบบนโทรศัพท์ของคุณ',
  },
  identifier: {
    sentBefore: 'ส่งคำขอเข้าสู่ระบบไปยังโทรศัพท์ของ ',
    sentAfter: ' แล้ว โปรดอนุมัติบนโทรศัพท์เครื่องนั้น',
    cancel: 'ยกเลิก',
    label: 'รหัสผู้ใช้',
    description: 'รหัสประจำบัญชีของคุณ เช่น name@domain',
    submit: 'เข้าสู่ระบบ',
  },
  signedInAs: 'คุณเข้าสู่ระบบในชื่อ {{name}}',
  aUser: 'ผู้ใช้',
  openConsole: 'เปิดหน้าจัดการ',
  noPassword: 'ไม่ต้องใช้รหัสผ่าน โทรศัพท์ของคุณเป็นผู้อนุมัติทุกการเข้าสู่ระบบ',
};

export default th;
