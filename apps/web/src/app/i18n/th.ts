import type { Translation } from '@/lib/i18n/translation.ts';
import type common from './en.ts';

const th: Translation<typeof common> = {
  language: {
    label: 'ภาษา',
    saved: 'ตั้งแต่นี้ระบบจะแสดงเป็นภาษาไทย',
    notSaved: 'บันทึกภาษาลงในบัญชีไม่สำเร็จ ภาษาที่เลือกจะใช้ได้เฉพาะในอุปกรณ์นี้',
  },
  skipToContent: 'ข้ามไปยังเนื้อหา',
  home: 'หน้าแรกของ {{name}}',
  topBar: {
    server: 'เซิร์ฟเวอร์',
    areas: 'ส่วนงาน',
    yourAccount: 'บัญชีของคุณ',
    disconnect: 'ออกจากระบบ',
    disconnectIn: 'ออกจากระบบ ({{seconds}} วิ.)',
  },
  error: {
    somethingWrong: 'เกิดข้อผิดพลาดบางอย่าง',
  },
  enums: {
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
  },
};

export default th;
