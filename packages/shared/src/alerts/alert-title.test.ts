import { describe, expect, it } from 'vitest';
import { alertOrigin, alertTitle, MAX_ALERT_TITLE } from './alert-title.ts';

const outOfBounds = (
  dataType: string,
  fields: Record<string, unknown>,
  reading: Record<string, unknown> = {},
) => ({
  data: { reason: 'out_of_bounds', dataType, count: 1, fields, reading: { timestamp: 1, ...reading } },
});

describe('alertTitle', () => {
  it('names a fall reported by an alert reading', () => {
    const alert = {
      data: {
        reason: 'alert_reading',
        dataType: 'alert',
        reading: { id: 'e1', type: 'fall_detected', timestamp: 1 },
      },
    };
    expect(alertTitle(alert)).toBe('Fall detected');
    expect(alertTitle({ data: { reason: 'alert_reading', reading: { type: 'fall' } } })).toBe(
      'Fall detected',
    );
    expect(alertOrigin(alert)).toBe('Raised by the device');
    // A burst of one event in a batch is one alert that counts them.
    expect(alertOrigin({ data: { ...alert.data, count: 40 } })).toBe('Raised by the device 40 times');
    expect(alertOrigin({ data: { ...alert.data, count: 40 } }, 'th')).toBe('แจ้งโดยอุปกรณ์ 40 ครั้ง');
  });

  it('says how low a heart rate was and which bound it crossed', () => {
    expect(
      alertTitle(outOfBounds('heart_rate', { rate: { min: 40, max: 130, lowest: 31, highest: 31 } })),
    ).toBe('Heart rate 31 /min, below 40');
  });

  it('says how high a heart rate was, the highest of the batch', () => {
    const alert = outOfBounds('heart_rate', { rate: { min: 40, max: 130, lowest: 135, highest: 152 } });
    expect(alertTitle(alert)).toBe('Heart rate 152 /min, above 130');
    expect(alertOrigin({ data: { ...alert.data, count: 3 } })).toBe('3 readings out of bounds');
    // A manual alert names who sent it when the reader may know, else the care team.
    const manual = { data: { kind: 'manual', message: 'Please call' } };
    expect(alertOrigin(manual)).toBe('Sent by the care team');
    expect(alertOrigin(manual, 'en', 'Wichai Panyawong')).toBe('Sent by Wichai Panyawong');
    expect(alertOrigin(manual, 'th', 'วิชัย')).toBe('ส่งโดย วิชัย');
    // A reading's alert has no sender to name.
    expect(alertOrigin(alert, 'en', 'Wichai Panyawong')).toBe('A reading out of bounds');
  });

  it('gives temperatures in °C, as they are compared', () => {
    expect(
      alertTitle(
        outOfBounds(
          'temperature',
          { value: { min: 35, max: 39.5, lowest: 39.84, highest: 39.84 } },
          { unit: 'C' },
        ),
      ),
    ).toBe('Temperature 39.8 °C, above 39.5');
    expect(
      alertTitle(
        outOfBounds(
          'temperature',
          { value: { min: 35, max: 39.5, lowest: 34.2, highest: 34.2 } },
          { unit: '°F' },
        ),
      ),
    ).toBe('Temperature 34.2 °C, below 35');
  });

  it('names SpO2 in percent', () => {
    expect(alertTitle(outOfBounds('spo2', { value: { min: 92, lowest: 88, highest: 88 } }))).toBe(
      'SpO2 88%, below 92',
    );
  });

  it('gives both blood pressure values and the one out of bounds', () => {
    expect(
      alertTitle(
        outOfBounds(
          'blood_pressure',
          { sys: { min: 80, max: 180, lowest: 195, highest: 195 } },
          { sys: 195, dias: 90 },
        ),
      ),
    ).toBe('Blood pressure 195/90 mmHg, systolic above 180');
    expect(
      alertTitle(
        outOfBounds(
          'blood_pressure',
          { dias: { min: 40, max: 120, lowest: 35, highest: 35 } },
          { sys: 100, dias: 35 },
        ),
      ),
    ).toBe('Blood pressure 100/35 mmHg, diastolic below 40');
  });

  it('names a low battery and a pressure with the unit of the reading', () => {
    expect(alertTitle(outOfBounds('battery', { level: { min: 10, lowest: 7, highest: 7 } }))).toBe(
      'Battery 7%, below 10',
    );
    expect(
      alertTitle(
        outOfBounds('pressure', { value: { max: 1100, lowest: 1200, highest: 1200 } }, { unit: 'hPa' }),
      ),
    ).toBe('Pressure 1200 hPa, above 1100');
  });

  it('uses the message of an alert sent by hand, cut to a bound', () => {
    expect(alertTitle({ data: { kind: 'manual', message: 'Please call the nurse' } })).toBe(
      'Please call the nurse',
    );
    const long = alertTitle({ data: { kind: 'manual', message: 'x'.repeat(500) } });
    expect(long).toHaveLength(MAX_ALERT_TITLE);
    expect(long.endsWith('…')).toBe(true);
  });

  it('falls back to something readable, never to a reason code or "No user named"', () => {
    expect(alertTitle({ data: { reason: 'out_of_bounds', dataType: 'glucose', fields: {} } })).toBe(
      'Glucose out of bounds',
    );
    expect(alertTitle(outOfBounds('glucose', { mg_dl: { max: 180, lowest: 250, highest: 250 } }))).toBe(
      'Glucose mg dl 250, above 180',
    );
    expect(alertTitle({ data: { reason: 'alert_reading', reading: { id: 'x', timestamp: 1 } } })).toBe(
      'Alert from the device',
    );
    expect(alertTitle({ data: { reason: 'alert_reading', reading: { type: 'door_left_open' } } })).toBe(
      'Door left open',
    );
    expect(alertTitle({ data: { dataType: 'heart_rate' } })).toBe('Heart rate alert');
    expect(alertTitle({ data: {} })).toBe('Alert');
    expect(alertTitle({ data: { type: 'manual' } })).toBe('Alert from the care team');
    expect(alertTitle({ data: null })).toBe('Alert');
    for (const data of [{}, { reason: 'alert_reading' }, { reason: 'out_of_bounds' }, { type: 'manual' }]) {
      expect(alertTitle({ data })).not.toMatch(/No user named|_/);
    }
  });
});

describe('alertTitle in Thai', () => {
  it('tells a reading outside its bounds in Thai, the values as measured', () => {
    const low = outOfBounds('heart_rate', { rate: { min: 40, max: 130, lowest: 31, highest: 31 } });
    expect(alertTitle(low, 'th')).toBe('ชีพจร 31 ครั้ง/นาที ต่ำกว่า 40');
    expect(alertTitle(low, 'en')).toBe('Heart rate 31 /min, below 40');
    expect(alertOrigin({ data: { ...low.data, count: 3 } }, 'th')).toBe('ค่าที่วัดได้ 3 ครั้งอยู่นอกเกณฑ์');
    const pressure = outOfBounds(
      'blood_pressure',
      { sys: { max: 140, lowest: 165, highest: 165 } },
      {
        sys: 165,
        dias: 95,
      },
    );
    expect(alertTitle(pressure, 'th')).toBe('ความดันโลหิต 165/95 mmHg ค่าตัวบนสูงกว่า 140');
  });

  it('names an event and an alert from the care team in Thai; a person’s words stay as written', () => {
    expect(alertTitle({ data: { reason: 'alert_reading', reading: { type: 'fall' } } }, 'th')).toBe(
      'ตรวจพบการหกล้ม',
    );
    expect(alertTitle({ data: { kind: 'manual' } }, 'th')).toBe('การแจ้งเตือนจากทีมดูแล');
    expect(alertTitle({ data: { kind: 'manual', message: 'Call Mrs. Somsri' } }, 'th')).toBe(
      'Call Mrs. Somsri',
    );
    expect(alertTitle({ data: { title: 'ตรวจเยี่ยมบ้าน' } }, 'th')).toBe('ตรวจเยี่ยมบ้าน');
  });

  it('tells anew the English title the server stored, and keeps one a person wrote', () => {
    const data = { dataType: 'temperature' };
    const stored = { data: { ...data, title: alertTitle({ data }) } };
    expect(stored.data.title).toBe('Temperature alert');
    expect(alertTitle(stored, 'th')).toBe('การแจ้งเตือนอุณหภูมิ');
    expect(alertTitle({ data: { ...data, title: 'Fever again' } }, 'th')).toBe('Fever again');
  });
});
