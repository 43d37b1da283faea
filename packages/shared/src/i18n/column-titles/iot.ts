// The Thai headers of the IoT devices list (../column-titles.ts).
// The console's Thai catalog of the area imports this file alone: these titles load with it, and with
// nothing else.
import type { ColumnTitles } from '../../common/list-columns.ts';
import type { iotDeviceColumns } from '../../iot/iot.columns.ts';

export const thaiIotColumnTitles: {
  'iot-devices': ColumnTitles<typeof iotDeviceColumns>;
} = {
  'iot-devices': {
    hardwareIdentifier: 'รหัสฮาร์ดแวร์',
    model: 'รุ่น',
    connectionType: 'การเชื่อมต่อ',
    trustLevel: 'ระดับความน่าเชื่อถือ',
    supportedDataTypes: 'ประเภทข้อมูล',
    assignedUser: 'ผู้ใช้ที่มอบหมาย',
    devices: 'อุปกรณ์ลูกข่าย',
    allowMultipleDeviceRelationships: 'หลายอุปกรณ์',
    createdAt: 'วันที่สร้าง',
  },
};
