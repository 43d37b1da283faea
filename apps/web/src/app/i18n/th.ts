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
  menu: {
    label: 'เมนูผู้ดูแลระบบ',
    open: 'เมนู',
    close: 'ปิดเมนู',
    users: 'ผู้ใช้งาน',
    patients: 'ผู้ป่วย',
    devices: 'อุปกรณ์',
    deviceJobs: 'งานของอุปกรณ์',
    workstations: 'สถานีงาน',
    iotDevices: 'อุปกรณ์ IoT',
    prescriptions: 'ใบสั่งยา',
    serviceProviders: 'ผู้ให้บริการ',
    commandCenters: 'ศูนย์สั่งการ',
    alerts: 'การแจ้งเตือน',
    settings: 'การตั้งค่า',
    public: 'หน้าสาธารณะ',
    home: 'หน้าแรก',
    actions: 'การดำเนินการ',
    disconnect: 'ออกจากระบบ',
  },
  userPages: {
    label: 'หน้าของคุณ',
    documents: 'เอกสาร',
    account: 'บัญชี',
  },
  adminHome: {
    title: 'หน้าหลักผู้ดูแลระบบ',
    loading: 'กำลังโหลด…',
    users: {
      allLink: 'ผู้ใช้ทั้งหมด',
      summary: 'ทั้งหมด {{total}} คน เพิ่มใหม่ {{added}} คนในช่วง 12 เดือนที่ผ่านมา',
      chart: 'ผู้ใช้ใหม่รายเดือน',
      series: 'ผู้ใช้ใหม่',
    },
    devices: {
      allLink: 'อุปกรณ์ทั้งหมด',
      summary: 'ทั้งหมด {{total}} เครื่อง ส่งข้อมูลแล้วในชั่วโมงนี้ {{latest}} เครื่อง ชั่วโมงก่อนหน้า {{previous}} เครื่อง',
      chart: 'อุปกรณ์ที่ส่งข้อมูลรายชั่วโมง',
      series: 'อุปกรณ์ที่ส่งข้อมูล',
    },
    alerts: {
      title: 'การแจ้งเตือนที่ยังเปิดอยู่',
      titleCount: 'การแจ้งเตือนที่ยังเปิดอยู่ ({{total}})',
      allLink: 'การแจ้งเตือนทั้งหมด',
      loading: 'กำลังโหลดการแจ้งเตือน',
      latest: 'แสดง {{shown}} รายการล่าสุดจากการแจ้งเตือนที่ยังเปิดอยู่ {{total}} รายการ ',
      seeAll: 'ดูทั้งหมด {{total}} รายการ',
      none: 'ไม่มีการแจ้งเตือนที่ยังเปิดอยู่',
    },
    jobs: {
      title: 'งานของอุปกรณ์ล่าสุด',
      allLink: 'งานทั้งหมด',
      loading: 'กำลังโหลดงาน',
      none: 'ยังไม่มีงาน',
    },
  },
  notYetAvailable: {
    thisPage: 'หน้านี้',
    title: 'ยังไม่เปิดให้ใช้งาน',
    text: '{{title}} ยังไม่มีในระบบเวอร์ชันนี้',
  },
  login: {
    title: 'เข้าสู่ระบบ',
    intro: 'ด้วยแอป Careplane: สแกนคิวอาร์โค้ด หรือใช้รหัสผู้ใช้ของคุณ',
  },
  footer: {
    version: '{{name}} เวอร์ชัน {{version}}',
  },
  verify: {
    yourDocuments: 'เอกสารของคุณ',
    logIn: 'เข้าสู่ระบบ',
    title: 'ตรวจสอบเอกสาร',
    intro:
      'ตรวจสอบว่าไฟล์ PDF ที่ลงนามด้วย Careplane เป็นของจริงและไม่ถูกแก้ไข พร้อมดูว่าใครลงนาม ลงนามเมื่อใด และมีการแก้ไขอะไรหลังการลงนามแต่ละครั้ง ไม่ต้องเข้าสู่ระบบ',
    checking: 'กำลังตรวจสอบใบสั่งยา',
    notFoundTitle: 'ไม่พบใบสั่งยาที่ลงนามแล้วซึ่งตรงกับรหัสนี้',
    notFoundText: 'รหัสนี้ไม่ตรงกับใบสั่งยาใดที่มีเอกสารลงนามด้วย Careplane คุณยังตรวจสอบไฟล์ PDF ของใบสั่งยานี้ได้ที่ด้านล่าง',
    receipts: 'เอกสารที่ลงนามของใบสั่งยา',
    receiptTitles: {
      issuer: 'ใบสั่งยา ลงนามโดยผู้สั่งยา',
      pickup: 'ใบรับยา ลงนามโดยผู้ที่มารับยา',
    },
    compareBefore: 'เปรียบเทียบเอกสารกระดาษกับ',
    compareLink: 'เอกสารตามที่ลงนามไว้',
    compareAfter: ': ชื่อ รายการ และวันที่ต้องตรงกัน',
  },
};

export default th;
