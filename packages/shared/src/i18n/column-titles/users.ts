// The Thai headers of the users list and its patients view (../column-titles.ts).
// The console's Thai catalog of the area imports this file alone: these titles load with it, and with
// nothing else.
import type { ColumnTitles } from '../../common/list-columns.ts';
import type { patientColumns, userColumns } from '../../users/users.columns.ts';

export const thaiUserColumnTitles: {
  users: ColumnTitles<typeof userColumns>;
  patients: ColumnTitles<typeof patientColumns>;
} = {
  users: {
    name: 'ชื่อ',
    username: 'ชื่อผู้ใช้',
    email: 'อีเมล',
    phoneNumber: 'โทรศัพท์',
    localRoles: 'บทบาทในหน่วยงาน',
    patientStatus: 'สถานะผู้ป่วย',
    commandCenters: 'ศูนย์สั่งการ',
    isBlocked: 'ถูกระงับ',
    createdAt: 'วันที่สร้าง',
  },
  patients: {
    name: 'ชื่อ',
    username: 'ชื่อผู้ใช้',
    status: 'สถานะ',
    emergencyContacts: 'ผู้ติดต่อกรณีฉุกเฉิน',
    assignedNurses: 'พยาบาล',
    workstations: 'สถานีงาน',
    phoneNumber: 'โทรศัพท์',
    createdAt: 'วันที่สร้าง',
  },
};
