import { thaiServiceProviderColumnTitles } from '@careplane/shared/i18n/column-titles/service-providers';
import type { Translation } from '@/lib/i18n/translation.ts';
import type serviceProviders from './en.ts';

const th: Translation<typeof serviceProviders> = {
  noun: 'ผู้ให้บริการ',
  title: 'ผู้ให้บริการ',
  // Column headers: the same Thai as the CSV export's (shared/i18n/column-titles/).
  columns: thaiServiceProviderColumnTitles['service-providers'],
  labels: {
    id: 'ID',
    title: 'ชื่อ',
    type: 'ประเภท',
    isEnabled: 'เปิดใช้งาน',
    employee: 'พนักงาน',
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
    type: 'ประเภท',
    isEnabled: 'เปิดใช้งาน',
    employees: 'พนักงาน',
    address: 'ที่อยู่',
  },
  detail: {
    section: 'ผู้ให้บริการ',
    title: 'ชื่อ',
    type: 'ประเภท',
    isEnabled: 'เปิดใช้งาน',
    yes: 'ใช่',
    no: 'ไม่ใช่',
    address: 'ที่อยู่',
    addressTitle: 'ชื่อที่อยู่',
    latLng: 'ละติจูด, ลองจิจูด',
    created: 'วันที่สร้าง',
    createdBy: 'สร้างโดย',
    employees: 'พนักงาน',
    noEmployees: 'ไม่มีพนักงาน',
    prescriptions: 'ใบสั่งยา',
    supplied: 'ใบสั่งยาที่ผู้ให้บริการนี้จัดยา',
    shipped: 'ใบสั่งยาที่ผู้ให้บริการนี้จัดส่ง',
  },
};

export default th;
