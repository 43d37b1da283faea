import { describe, expect, it } from 'vitest';
import { readingText, unitOf } from './reading-text.ts';

const at = { timestamp: 1_795_849_267_846 };

describe('readingText', () => {
  it('says each measured kind with its unit, and never the time or id it carries', () => {
    expect(readingText('battery', { ...at, level: 40 })).toBe('Battery 40%');
    expect(readingText('heart_rate', { ...at, id: 'r-1', rate: 72 })).toBe('Heart rate 72 /min');
    expect(readingText('blood_pressure', { ...at, sys: 128, dias: 82 })).toBe('Blood pressure 128/82 mmHg');
    expect(readingText('pressure', { ...at, value: 1013.25, unit: 'hPa' })).toBe('Pressure 1013.3 hPa');
  });

  it('writes a temperature in the unit the device gave, as people write it', () => {
    expect(readingText('temperature', { ...at, value: 36.84, unit: 'C' })).toBe('Temperature 36.8 °C');
    expect(readingText('temperature', { ...at, value: 98.6, unit: 'F' })).toBe('Temperature 98.6 °F');
    expect(readingText('temperature', { ...at, value: 310, unit: 'K' })).toBe('Temperature 310 K');
  });

  it('names the event of an alert reading, with the message the device added', () => {
    expect(readingText('alert', { ...at, id: 'e1', type: 'fall_detected' })).toBe('Fall detected');
    expect(readingText('alert', { ...at, id: 'e2', type: 'sos', message: 'Bathroom' })).toBe(
      'Alarm button pressed: Bathroom',
    );
    expect(readingText('alert', { ...at, id: 'e3' })).toBe('Alert from the device');
    // The simulator's device alerts (careplane-agent simulate-iot) have their titles too.
    expect(readingText('alert', { ...at, id: 'e5', type: 'sos_button' })).toBe('Alarm button pressed');
    expect(readingText('alert', { ...at, id: 'e6', type: 'device_removed' }, 'th')).toBe('ถอดอุปกรณ์ออกจากตัว');
    expect(readingText('alert', { ...at, id: 'e4', type: 'fall', room: 'kitchen', confidence: 0.93 })).toBe(
      'Fall detected, Room kitchen, Confidence 0.9',
    );
  });

  it('speaks Thai', () => {
    expect(readingText('heart_rate', { ...at, rate: 72 }, 'th')).toBe('ชีพจร 72 ครั้ง/นาที');
    expect(readingText('battery', { ...at, level: 8 }, 'th')).toBe('แบตเตอรี่ 8%');
    expect(readingText('blood_pressure', { ...at, sys: 150, dias: 95 }, 'th')).toBe('ความดันโลหิต 150/95 mmHg');
    expect(readingText('alert', { ...at, id: 'e1', type: 'fall' }, 'th')).toBe('ตรวจพบการหกล้ม');
    // An alarm's severity, as devices send it beside the event, in words of the language.
    const fall = { ...at, type: 'fall', message: 'Possible fall', severity: 'high' };
    expect(readingText('alert', fall, 'th')).toBe('ตรวจพบการหกล้ม: Possible fall, ระดับความรุนแรง สูง');
    expect(readingText('alert', fall)).toBe('Fall detected: Possible fall, Severity high');
    // An alert's own severity reads as the alerts say it.
    expect(readingText('alert', { ...fall, severity: 'critical' }, 'th')).toBe(
      'ตรวจพบการหกล้ม: Possible fall, ระดับความรุนแรง วิกฤต',
    );
    expect(readingText('alert', { ...fall, severity: 'orange' }, 'th')).toBe(
      'ตรวจพบการหกล้ม: Possible fall, ระดับความรุนแรง orange',
    );
  });

  it('reads what it has no words for by field name, and something for an empty reading', () => {
    expect(readingText('spo2', { ...at, value: 97 })).toBe('SpO2 97%');
    expect(readingText('steps', { ...at, count: 5200, source: 'wrist' })).toBe('Count 5200, Source wrist');
    expect(readingText('heart_rate', { ...at })).toBe('Heart rate');
    expect(readingText('heart_rate', null)).toBe('Heart rate');
  });
});

describe('unitOf', () => {
  it('is the reading’s own unit as people write it, else the quantity’s, in the reader’s language', () => {
    expect(unitOf('heart_rate', 'rate', undefined, 'en')).toBe('/min');
    expect(unitOf('heart_rate', 'rate', undefined, 'th')).toBe('ครั้ง/นาที');
    expect(unitOf('temperature', 'value', { unit: 'F' }, 'en')).toBe('°F');
    expect(unitOf('temperature', 'value', null, 'en')).toBe('°C');
    expect(unitOf('pressure', 'value', { unit: 'hPa' }, 'th')).toBe('hPa');
    expect(unitOf('blood_pressure', 'sys', undefined, 'en')).toBe('mmHg');
  });
});
