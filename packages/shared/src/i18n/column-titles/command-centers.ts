// The Thai headers of the command centers list (../column-titles.ts).
// The console's Thai catalog of the area imports this file alone: these titles load with it, and with
// nothing else.
import type { ColumnTitles } from '../../common/list-columns.ts';
import type { commandCenterColumns } from '../../command-centers/command-centers.columns.ts';

export const thaiCommandCenterColumnTitles: {
  'command-centers': ColumnTitles<typeof commandCenterColumns>;
} = {
  'command-centers': {
    title: 'ชื่อ',
    address: 'ที่อยู่',
    assignedUsers: 'ผู้ใช้ที่ได้รับมอบหมาย',
    devices: 'อุปกรณ์',
    createdAt: 'วันที่สร้าง',
  },
};
