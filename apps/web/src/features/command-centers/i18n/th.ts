import { thaiCommandCenterColumnTitles } from '@careplane/shared/i18n/column-titles/command-centers';
import type { Translation } from '@/lib/i18n/translation.ts';
import type commandCenters from './en.ts';

const th: Translation<typeof commandCenters> = {
  noun: 'ศูนย์สั่งการ',
  title: 'ศูนย์สั่งการ',
  // Column headers: the same Thai as the CSV export's (shared/i18n/column-titles/).
  columns: thaiCommandCenterColumnTitles['command-centers'],
  labels: {
    id: 'ID',
    title: 'ชื่อ',
    assignedUser: 'ผู้ใช้ที่ได้รับมอบหมาย',
    device: 'อุปกรณ์',
    createdBy: 'สร้างโดย',
    addressTitle: 'ชื่อที่อยู่',
    street: 'ถนน',
    district: 'แขวง/ตำบล',
    city: 'เขต/อำเภอ',
    county: 'จังหวัด',
    postalCode: 'รหัสไปรษณีย์',
    country: 'ประเทศ',
  },
  fields: {
    title: 'ชื่อ',
    assignedUsers: 'ผู้ใช้ที่ได้รับมอบหมาย',
    address: 'ที่อยู่',
  },
  detail: {
    section: 'ศูนย์สั่งการ',
    title: 'ชื่อ',
    address: 'ที่อยู่',
    addressTitle: 'ชื่อที่อยู่',
    county: 'จังหวัด',
    latLng: 'ละติจูด, ลองจิจูด',
    created: 'วันที่สร้าง',
    createdBy: 'สร้างโดย',
    assignedUsers: 'ผู้ใช้ที่ได้รับมอบหมาย',
    noUsers: 'ยังไม่มีผู้ใช้ที่ได้รับมอบหมาย',
    devices: 'อุปกรณ์',
    noDevices: 'ไม่มีอุปกรณ์',
    itsUsers: 'ดูผู้ใช้ของศูนย์นี้ในรายการผู้ใช้',
    itsDevices: 'ดูอุปกรณ์ของศูนย์นี้ในรายการอุปกรณ์',
  },
  view: {
    title: 'ศูนย์สั่งการ',
    notAssigned: 'คุณยังไม่ได้รับมอบหมายให้ดูแลศูนย์สั่งการใด',
    notAllowed: 'คุณไม่มีสิทธิ์เปิดศูนย์สั่งการ ส่วนนี้สำหรับผู้ดูแลระบบและทีมดูแลของศูนย์สั่งการ (หัวหน้างาน พยาบาล และแพทย์)',
    loading: 'กำลังโหลด…',
    openAlerts: 'การแจ้งเตือนที่ยังเปิดอยู่',
    noOpenAlerts: 'ไม่มีการแจ้งเตือนที่ยังเปิดอยู่',
    jobs: 'งานของอุปกรณ์',
    noJobs: 'ไม่มีงาน',
    device: 'อุปกรณ์',
    purpose: 'วัตถุประสงค์',
    status: 'สถานะ',
    users: 'ผู้ใช้',
    noUsers: 'ไม่มีผู้ใช้',
    devices: 'อุปกรณ์',
    noDevices: 'ไม่มีอุปกรณ์',
    sendAlert: 'ส่งการแจ้งเตือน',
    alertSent: 'ส่งการแจ้งเตือนถึง {{name}} แล้ว',
  },
};

export default th;
