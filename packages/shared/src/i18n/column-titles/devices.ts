// The Thai headers of the devices, workstations and device jobs lists (../column-titles.ts).
// The console's Thai catalog of the area imports this file alone: these titles load with it, and with
// nothing else.
import type { ColumnTitles } from '../../common/list-columns.ts';
import type { deviceColumns, deviceJobColumns, workstationColumns } from '../../devices/devices.columns.ts';

export const thaiDeviceColumnTitles: {
  devices: ColumnTitles<typeof deviceColumns>;
  workstations: ColumnTitles<typeof workstationColumns>;
  'device-jobs': ColumnTitles<typeof deviceJobColumns>;
} = {
  devices: {
    title: 'ชื่อ',
    role: 'บทบาท',
    localRoles: 'บทบาทในหน่วยงาน',
    isEnabled: 'เปิดใช้งาน',
    assignedUser: 'ผู้ใช้ที่มอบหมาย',
    workstation: 'สถานีงาน',
    commandCenter: 'ศูนย์สั่งการ',
    location: 'สถานที่ติดตั้ง',
    createdAt: 'วันที่สร้าง',
  },
  workstations: {
    title: 'ชื่อ',
    device: 'อุปกรณ์',
    assignedPatients: 'ผู้ป่วย',
    assignedWorkstations: 'อุปกรณ์ที่มอบหมาย',
    createdAt: 'วันที่สร้าง',
  },
  'device-jobs': {
    purpose: 'วัตถุประสงค์',
    device: 'อุปกรณ์',
    status: 'สถานะ',
    commands: 'คำสั่ง',
    notBefore: 'เริ่มได้ตั้งแต่',
    createdByUser: 'สร้างโดย',
    createdAt: 'วันที่สร้าง',
  },
};
