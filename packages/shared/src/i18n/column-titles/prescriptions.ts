// The Thai headers of the prescriptions list (../column-titles.ts).
// The console's Thai catalog of the area imports this file alone: these titles load with it, and with
// nothing else.
import type { ColumnTitles } from '../../common/list-columns.ts';
import type { prescriptionColumns } from '../../prescriptions/prescriptions.columns.ts';

export const thaiPrescriptionColumnTitles: {
  prescriptions: ColumnTitles<typeof prescriptionColumns>;
} = {
  prescriptions: {
    content: 'รายการยา',
    status: 'สถานะ',
    recipient: 'ผู้รับยา',
    issuer: 'ผู้สั่งยา',
    supplier: 'ร้านยา',
    pickup: 'ผู้ไปรับยา',
    pickupByNurse: 'พยาบาลไปรับ',
    deliveryCity: 'เมืองปลายทาง',
    createdAt: 'วันที่สร้าง',
  },
};
