import { describe, expect, it } from 'vitest';
import { visitInfo } from '../../src/lib/expo/visit';

describe('visitInfo (the visit block of the credential and lookup pages)', () => {
  const full = {
    startTime: '2026-12-01 09:00:00',
    endTime: '2026-12-03 17:00:00',
    hall: ' Hall  1–3 ',
    address: 'Canton Fair Complex, Guangzhou',
    contactPhone: '+86 20 8888 1308',
    contactEmail: 'visitor@ieae.example',
  };

  it('the dates as one range in the page language, the rest as given', () => {
    const en = visitInfo(full, 'en');
    expect(en?.dates).toMatch(/^1\s?[–-]\s?3 Dec 2026$/);
    expect(en).toMatchObject({ hall: 'Hall 1–3', address: 'Canton Fair Complex, Guangzhou' });
    expect(visitInfo(full, 'zh')?.dates).toMatch(/^2026\/12\/1\s?[–-]\s?2026\/12\/3$/);
    expect(visitInfo(full, 'thai')?.dates).toMatch(/ธ\.ค\./);
  });

  it('a phone and an e-mail become links only when they read as one', () => {
    const v = visitInfo(full, 'en');
    expect(v?.phone).toEqual({ text: '+86 20 8888 1308', href: 'tel:+862088881308' });
    expect(v?.email).toEqual({ text: 'visitor@ieae.example', href: 'mailto:visitor@ieae.example' });
    const hostile = visitInfo({ contactPhone: 'javascript:alert(1)', contactEmail: 'x@y.example?cc=z<script>', hall: 'Hall 2' }, 'en');
    expect(hostile).toEqual({ dates: null, hall: 'Hall 2', address: null, phone: null, email: null });
  });

  it('no dates from one date, a reversed range or a date that does not exist', () => {
    expect(visitInfo({ startTime: '2026-12-01 09:00:00', hall: 'A' }, 'en')?.dates).toBeNull();
    expect(visitInfo({ startTime: '2026-12-03', endTime: '2026-12-01', hall: 'A' }, 'en')?.dates).toBeNull();
    expect(visitInfo({ startTime: '2026-02-30', endTime: '2026-03-01', hall: 'A' }, 'en')?.dates).toBeNull();
  });

  it('nothing to say: null', () => {
    expect(visitInfo(null, 'en')).toBeNull();
    expect(visitInfo({ hall: '  ', contactPhone: 'call us' }, 'en')).toBeNull();
  });
});
