// The Thai headers of the service providers list (../column-titles.ts).
// The console's Thai catalog of the area imports this file alone: these titles load with it, and with
// nothing else.
import type { ColumnTitles } from '../../common/list-columns.ts';
import type { serviceProviderColumns } from '../../service-providers/service-providers.columns.ts';

export const thaiServiceProviderColumnTitles: {
  'service-providers': ColumnTitles<typeof serviceProviderColumns>;
} = {
  'service-providers': {
    title: 'ชื่อ',
    type: 'ประเภท',
    isEnabled: 'เปิดใช้งาน',
    address: 'ที่อยู่',
    employees: 'พนักงาน',
    createdAt: 'วันที่สร้าง',
  },
};
