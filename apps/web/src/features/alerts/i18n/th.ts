// ภาษาไทยของการแจ้งเตือน (namespace `alerts`): the same keys as en.ts.
import type { Translation } from '@/lib/i18n/translation.ts';
import type alerts from './en.ts';

const th: Translation<typeof alerts> = {
  page: {
    title: 'การแจ้งเตือน',
    countAll_one: 'การแจ้งเตือน {{count}} รายการ',
    countAll_other: 'การแจ้งเตือน {{count}} รายการ',
    countActive_one: 'การแจ้งเตือนที่ยังเปิดอยู่ {{count}} รายการ',
    countActive_other: 'การแจ้งเตือนที่ยังเปิดอยู่ {{count}} รายการ',
    countClosed_one: 'การแจ้งเตือนที่ปิดแล้ว {{count}} รายการ',
    countClosed_other: 'การแจ้งเตือนที่ปิดแล้ว {{count}} รายการ',
    filters: 'ตัวกรอง',
    state: 'สถานะ',
    open: 'เปิดอยู่',
    closed: 'ปิดแล้ว',
    all: 'ทั้งหมด',
    severity: 'ระดับความรุนแรง',
    any: 'ทั้งหมด',
    anyone: 'ทุกคน',
    commandCenter: 'ศูนย์สั่งการ',
    iotDevice: 'อุปกรณ์ IoT',
    patient: 'ผู้ป่วย',
    list: 'รายการแจ้งเตือน',
    loading: 'กำลังโหลดการแจ้งเตือน',
    loadFailed: 'โหลดการแจ้งเตือนไม่สำเร็จ',
    noneMatch: 'ไม่มีการแจ้งเตือนที่ตรงกับเงื่อนไข',
  },
  record: {
    title: 'การแจ้งเตือน',
    titleCount: 'การแจ้งเตือน ({{total}})',
    none: 'ไม่มีการแจ้งเตือน',
  },
  entry: {
    aUser: 'ผู้ใช้รายหนึ่ง',
    you: 'คุณ',
    someone: 'บุคคลที่ไม่ระบุชื่อ',
    via: 'ผ่าน ',
    from: 'จาก ',
    noPatient: 'ไม่ได้เกี่ยวกับผู้ป่วยรายใด',
    openAcknowledged: 'เปิดอยู่ · รับทราบแล้ว',
    open: 'เปิดอยู่',
    closed: 'ปิดแล้ว',
    acknowledgedBy: 'รับทราบโดย {{name}} เมื่อ {{time}}',
    closedBy: ' โดย {{name}}',
    closedOn: ' เมื่อ {{time}}',
    closingNote: ' บันทึกการปิด: {{note}}',
    whatWasDone: 'สิ่งที่ได้ดำเนินการ',
    noteNeeded: 'ต้องระบุก่อนปิดการแจ้งเตือน บันทึกนี้จะเก็บไว้กับการแจ้งเตือน',
    noteTooLong: 'ยาวได้ไม่เกิน {{max}} ตัวอักษร บันทึกนี้มี {{count}} ตัวอักษร',
    closeAlert: 'ปิดการแจ้งเตือน',
    cancel: 'ยกเลิก',
    acknowledge: 'รับทราบ',
    close: 'ปิด…',
  },
};

export default th;
