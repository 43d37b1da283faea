// Reference lists for seed data: Thai names, places with coordinates, streets and medicines.

export interface PersonName {
  /** Romanised, as used in usernames and the console. */
  name: string;
  /** Thai script, for additionalInfo.localized*. */
  thai: string;
}

export interface FirstName extends PersonName {
  gender: 'female' | 'male';
}

export const firstNames: readonly FirstName[] = [
  { name: 'Somchai', thai: 'สมชาย', gender: 'male' },
  { name: 'Somsak', thai: 'สมศักดิ์', gender: 'male' },
  { name: 'Anan', thai: 'อนันต์', gender: 'male' },
  { name: 'Arthit', thai: 'อาทิตย์', gender: 'male' },
  { name: 'Chaiwat', thai: 'ชัยวัฒน์', gender: 'male' },
  { name: 'Kittisak', thai: 'กิตติศักดิ์', gender: 'male' },
  { name: 'Niran', thai: 'นิรันดร์', gender: 'male' },
  { name: 'Prasert', thai: 'ประเสริฐ', gender: 'male' },
  { name: 'Sakda', thai: 'ศักดา', gender: 'male' },
  { name: 'Thanawat', thai: 'ธนวัฒน์', gender: 'male' },
  { name: 'Wichai', thai: 'วิชัย', gender: 'male' },
  { name: 'Pongsak', thai: 'พงศ์ศักดิ์', gender: 'male' },
  { name: 'Surachai', thai: 'สุรชัย', gender: 'male' },
  { name: 'Nattapong', thai: 'ณัฐพงศ์', gender: 'male' },
  { name: 'Kriangkrai', thai: 'เกรียงไกร', gender: 'male' },
  { name: 'Boonsong', thai: 'บุญส่ง', gender: 'male' },
  { name: 'Tawan', thai: 'ตะวัน', gender: 'male' },
  { name: 'Wirat', thai: 'วิรัตน์', gender: 'male' },
  { name: 'Siriporn', thai: 'ศิริพร', gender: 'female' },
  { name: 'Malee', thai: 'มาลี', gender: 'female' },
  { name: 'Kanya', thai: 'กัญญา', gender: 'female' },
  { name: 'Pranee', thai: 'ปราณี', gender: 'female' },
  { name: 'Suda', thai: 'สุดา', gender: 'female' },
  { name: 'Wanida', thai: 'วนิดา', gender: 'female' },
  { name: 'Ratana', thai: 'รัตนา', gender: 'female' },
  { name: 'Nittaya', thai: 'นิตยา', gender: 'female' },
  { name: 'Pimchanok', thai: 'พิมพ์ชนก', gender: 'female' },
  { name: 'Chanida', thai: 'ชนิดา', gender: 'female' },
  { name: 'Supaporn', thai: 'สุภาภรณ์', gender: 'female' },
  { name: 'Anong', thai: 'อนงค์', gender: 'female' },
  { name: 'Duangjai', thai: 'ดวงใจ', gender: 'female' },
  { name: 'Jintana', thai: 'จินตนา', gender: 'female' },
  { name: 'Kanokwan', thai: 'กนกวรรณ', gender: 'female' },
  { name: 'Lamai', thai: 'ละมัย', gender: 'female' },
  { name: 'Orathai', thai: 'อรทัย', gender: 'female' },
  { name: 'Porntip', thai: 'พรทิพย์', gender: 'female' },
];

export const lastNames: readonly PersonName[] = [
  { name: 'Srisuk', thai: 'ศรีสุข' },
  { name: 'Saelim', thai: 'แซ่ลิ้ม' },
  { name: 'Srisawat', thai: 'ศรีสวัสดิ์' },
  { name: 'Boonmee', thai: 'บุญมี' },
  { name: 'Thongdee', thai: 'ทองดี' },
  { name: 'Rattanakorn', thai: 'รัตนากร' },
  { name: 'Kaewmanee', thai: 'แก้วมณี' },
  { name: 'Phromma', thai: 'พรหมมา' },
  { name: 'Chaiyasit', thai: 'ชัยสิทธิ์' },
  { name: 'Suwannarat', thai: 'สุวรรณรัตน์' },
  { name: 'Jaidee', thai: 'ใจดี' },
  { name: 'Somboon', thai: 'สมบูรณ์' },
  { name: 'Wongsuwan', thai: 'วงศ์สุวรรณ' },
  { name: 'Intharasombat', thai: 'อินทรสมบัติ' },
  { name: 'Kongkaew', thai: 'คงแก้ว' },
  { name: 'Phanthong', thai: 'พันธ์ทอง' },
  { name: 'Sukprasert', thai: 'สุขประเสริฐ' },
  { name: 'Chantarasiri', thai: 'จันทรศิริ' },
  { name: 'Siriwat', thai: 'ศิริวัฒน์' },
  { name: 'Meechai', thai: 'มีชัย' },
  { name: 'Nakprasert', thai: 'นาคประเสริฐ' },
  { name: 'Yodsuwan', thai: 'ยอดสุวรรณ' },
  { name: 'Limsakul', thai: 'ลิ้มสกุล' },
  { name: 'Ruangsri', thai: 'เรืองศรี' },
  { name: 'Saetang', thai: 'แซ่ตั้ง' },
  { name: 'Panyawong', thai: 'ปัญญาวงศ์' },
  { name: 'Thepsiri', thai: 'เทพศิริ' },
  { name: 'Wattanakul', thai: 'วัฒนกุล' },
  { name: 'Kittikhun', thai: 'กิตติคุณ' },
  { name: 'Charoenrat', thai: 'เจริญรัตน์' },
];

export interface Place {
  district: string;
  city: string;
  /** The province. */
  county: string;
  postalCode: string;
  streets: readonly string[];
  lat: number;
  lng: number;
}

export interface Region {
  key: 'bangkok' | 'chiang-mai' | 'phuket';
  city: string;
  places: readonly Place[];
}

// Each district with streets that run through it: an address's street, district and map point agree, so a
// courier who follows the map arrives at the street the card names.
export const regions: readonly Region[] = [
  {
    key: 'bangkok',
    city: 'Bangkok',
    places: [
      {
        district: 'Pathum Wan',
        postalCode: '10330',
        lat: 13.7466,
        lng: 100.5393,
        streets: ['Rama I Road', 'Phaya Thai Road', 'Ratchadamri Road'],
      },
      {
        district: 'Bang Rak',
        postalCode: '10500',
        lat: 13.7308,
        lng: 100.5214,
        streets: ['Silom Road', 'Surawong Road', 'Charoen Krung Road'],
      },
      {
        district: 'Chatuchak',
        postalCode: '10900',
        lat: 13.8282,
        lng: 100.5597,
        streets: ['Phahonyothin Road', 'Vibhavadi Rangsit Road', 'Ngam Wong Wan Road'],
      },
      {
        district: 'Huai Khwang',
        postalCode: '10310',
        lat: 13.7765,
        lng: 100.5795,
        streets: ['Ratchadaphisek Road', 'Pracha Rat Bamphen Road', 'Tiam Ruam Mit Road'],
      },
      {
        district: 'Khlong Toei',
        postalCode: '10110',
        lat: 13.7083,
        lng: 100.5831,
        streets: ['Rama IV Road', 'Sukhumvit Road', 'Rama III Road'],
      },
      {
        district: 'Bang Kapi',
        postalCode: '10240',
        lat: 13.7659,
        lng: 100.6476,
        streets: ['Ramkhamhaeng Road', 'Lat Phrao Road', 'Seri Thai Road'],
      },
    ].map((place) => ({ ...place, city: 'Bangkok', county: 'Bangkok' })),
  },
  {
    key: 'chiang-mai',
    city: 'Chiang Mai',
    places: [
      {
        district: 'Mueang Chiang Mai',
        postalCode: '50200',
        lat: 18.7883,
        lng: 98.9853,
        streets: ['Nimmanhaemin Road', 'Huay Kaew Road', 'Chang Klan Road', 'Chotana Road'],
      },
      {
        district: 'San Sai',
        postalCode: '50210',
        lat: 18.8494,
        lng: 99.0411,
        streets: ['Chiang Mai-Phrao Road', 'Mae Jo Road'],
      },
      {
        district: 'Hang Dong',
        postalCode: '50230',
        lat: 18.6856,
        lng: 98.9189,
        streets: ['Chiang Mai-Hot Road', 'Canal Road'],
      },
      {
        district: 'Mae Rim',
        postalCode: '50180',
        lat: 18.9133,
        lng: 98.9447,
        streets: ['Mae Rim-Samoeng Road', 'Chotana Road'],
      },
    ].map((place) => ({ ...place, city: 'Chiang Mai', county: 'Chiang Mai' })),
  },
  {
    key: 'phuket',
    city: 'Phuket',
    places: [
      {
        district: 'Mueang Phuket',
        postalCode: '83000',
        lat: 7.8804,
        lng: 98.3923,
        streets: ['Phang Nga Road', 'Thalang Road', 'Chao Fa Road'],
      },
      {
        district: 'Kathu',
        postalCode: '83120',
        lat: 7.9086,
        lng: 98.3331,
        streets: ['Rat-U-Thit 200 Pi Road', 'Phra Barami Road', 'Vichitsongkram Road'],
      },
      {
        district: 'Thalang',
        postalCode: '83110',
        lat: 8.0289,
        lng: 98.3339,
        streets: ['Thepkasattri Road', 'Si Sunthon Road'],
      },
    ].map((place) => ({ ...place, city: 'Phuket', county: 'Phuket' })),
  },
];

export interface Medicine {
  name: string;
  strength: string;
  form: string;
  unit: string;
  dosage: string;
  quantity: number;
}

export const medicines: readonly Medicine[] = [
  {
    name: 'Metformin',
    strength: '500 mg',
    form: 'tablet',
    unit: 'tablets',
    dosage: '1 tablet twice daily with meals',
    quantity: 60,
  },
  {
    name: 'Amlodipine',
    strength: '5 mg',
    form: 'tablet',
    unit: 'tablets',
    dosage: '1 tablet once daily',
    quantity: 30,
  },
  {
    name: 'Atorvastatin',
    strength: '20 mg',
    form: 'tablet',
    unit: 'tablets',
    dosage: '1 tablet at bedtime',
    quantity: 30,
  },
  {
    name: 'Paracetamol',
    strength: '500 mg',
    form: 'tablet',
    unit: 'tablets',
    dosage: '1-2 tablets every 6 hours as needed, at most 8 a day',
    quantity: 20,
  },
  {
    name: 'Omeprazole',
    strength: '20 mg',
    form: 'capsule',
    unit: 'capsules',
    dosage: '1 capsule before breakfast',
    quantity: 28,
  },
  {
    name: 'Losartan',
    strength: '50 mg',
    form: 'tablet',
    unit: 'tablets',
    dosage: '1 tablet once daily',
    quantity: 30,
  },
  {
    name: 'Insulin glargine',
    strength: '100 units/mL',
    form: 'pre-filled pen',
    unit: 'pens',
    dosage: '18 units subcutaneously at bedtime',
    quantity: 5,
  },
  {
    name: 'Salbutamol',
    strength: '100 mcg/dose',
    form: 'inhaler',
    unit: 'inhaler',
    dosage: '2 puffs as needed for breathlessness',
    quantity: 1,
  },
  {
    name: 'Furosemide',
    strength: '40 mg',
    form: 'tablet',
    unit: 'tablets',
    dosage: '1 tablet every morning',
    quantity: 28,
  },
  {
    name: 'Warfarin',
    strength: '3 mg',
    form: 'tablet',
    unit: 'tablets',
    dosage: 'As directed by the INR clinic',
    quantity: 28,
  },
  {
    name: 'Enoxaparin',
    strength: '40 mg/0.4 mL',
    form: 'pre-filled syringe',
    unit: 'syringes',
    dosage: '1 injection daily',
    quantity: 10,
  },
  {
    name: 'Amoxicillin',
    strength: '500 mg',
    form: 'capsule',
    unit: 'capsules',
    dosage: '1 capsule three times daily for 7 days',
    quantity: 21,
  },
  {
    name: 'Levothyroxine',
    strength: '50 mcg',
    form: 'tablet',
    unit: 'tablets',
    dosage: '1 tablet before breakfast',
    quantity: 30,
  },
];

export const relationships = [
  'daughter',
  'son',
  'spouse',
  'sister',
  'brother',
  'neighbour',
  'friend',
] as const;
