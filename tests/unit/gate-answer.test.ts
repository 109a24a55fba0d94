/** A scan's code, answer and look, the stats and the CSV (src/lib/gate/answer.ts, report.ts), in node. */
import { describe, expect, it } from 'vitest';
import { GATE_LOOK, countText, readAnswer, gateAnswer, isDouble, normaliseCode, type RedeemedView } from '../../src/lib/gate/answer';
import { csvCell, csvCodes, csvDocument, expoToday, maskCode, scanRow, statsTable } from '../../src/lib/gate/report';
import { MESSAGES } from '../../src/i18n';
import { decodeFlash, encodeFlash } from '../../src/lib/page/flash';
import { routePath } from '../../src/lib/core/routes';
import type { GateResult } from '../../src/lib/gate/types';

const t = (k: string) => (k === 'class.0' ? 'Visitor' : k === 'class.8' ? 'Ticket' : k);
const redeemed = (more: Partial<RedeemedView> = {}): RedeemedView => ({
  result: 'used',
  usedCount: 1,
  maxCount: 1,
  lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 3' },
  uname: '钱五 Gate Once',
  euClass: 0,
  ticketName: '',
  euDefine: '',
  ...more,
});
const scan = { code: 'PF4R5MHUHIPEQBHR', gate: 'Gate 1', scannedAt: '2026-12-01T01:20:00.000Z' };

describe('normaliseCode', () => {
  it('trims and drops inner spaces (a code read aloud in groups)', () => {
    expect(normaliseCode(' PF4R 5MHU\tHIPE QBHR\n')).toBe('PF4R5MHUHIPEQBHR');
    expect(normaliseCode('   ')).toBeNull();
    expect(normaliseCode('PF4R!')).toBeNull();
    expect(normaliseCode('x'.repeat(65))).toBeNull();
  });

  it('takes the code of one of our credential links, on any host; nothing of any other link', () => {
    const path = routePath({ screen: 'credential', variant: null, params: { urlId: 21308, euCode: 'PF4R5MHUHIPEQBHR', expoId: 1308, fId: 21308 } });
    expect(normaliseCode(`https://expo.example${path}`)).toBe('PF4R5MHUHIPEQBHR');
    expect(normaliseCode(`http://127.0.0.1:8787/IEAESuccess/MjEzMDg/UEY0UjVNSFVISVBFUUJIUg/MTMwOA/21308/?f=x`)).toBe('PF4R5MHUHIPEQBHR');
    expect(normaliseCode('https://expo.example/IEAESearch/10542/MTMwOA/visitor')).toBeNull();
    expect(normaliseCode('https://evil.example/x?code=PF4R5MHUHIPEQBHR')).toBeNull();
    expect(normaliseCode('javascript:alert(1)')).toBeNull();
  });
});

describe('the answer’s look', () => {
  it('is green only for admitted, amber for review and other day, calm for a code nobody has, red for the rest', () => {
    const tones = Object.fromEntries(Object.entries(GATE_LOOK).map(([r, l]) => [r, l.tone]));
    // issue 30: an unknown code is most often a real one mistyped: "check the code", not a red "no such code"
    expect(tones).toEqual({ admitted: 'go', used: 'stop', otherExpo: 'stop', unknown: 'check', void: 'stop', review: 'wait', otherDay: 'wait' });
    for (const [r, l] of Object.entries(GATE_LOOK)) expect([l.word, l.explain]).toEqual([`gate.word${r[0]?.toUpperCase()}${r.slice(1)}`, `gate.explain${r[0]?.toUpperCase()}${r.slice(1)}`]);
  });

  it('says "check the code" calmly in every language: not opened with the refusal word the red answers use (issue 30)', () => {
    for (const [lang, m] of Object.entries(MESSAGES)) {
      const refuse = (m['gate.explainVoid'].split(/[:：]/)[0] ?? '').trim();
      expect(refuse.length, lang).toBeGreaterThan(0);
      expect(m['gate.explainUnknown'], lang).not.toContain(refuse);
      expect(m['gate.wordUnknown'], lang).not.toBe(m['gate.wordOtherExpo']);
    }
  });

  it('shows the name, the class label, the counts and the last entry; ∞ for unlimited', () => {
    const a = gateAnswer(redeemed(), scan, t);
    expect(a).toMatchObject({ result: 'used', name: '钱五 Gate Once', classLabel: 'Visitor', usedCount: 1, maxCount: 1, lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 3' }, gate: 'Gate 1' });
    expect(countText(a, '∞')).toBe('1 / 1');
    expect(countText({ usedCount: 4, maxCount: 0 }, '∞')).toBe('4 / ∞');
    expect(countText({ usedCount: null, maxCount: null }, '∞')).toBeNull();
    expect(gateAnswer(redeemed({ euClass: 8, ticketName: 'Two-Day Pass' }), scan, t).classLabel).toBe('Two-Day Pass');
  });

  it('says nothing but the result for another expo’s or an unknown code', () => {
    for (const result of ['otherExpo', 'unknown'] as GateResult[]) {
      expect(gateAnswer(redeemed({ result }), scan, t)).toMatchObject({ name: null, classLabel: null, usedCount: null, maxCount: null, lastEntry: null, ticketName: null });
    }
  });

  it('goes through the flash and back whole', () => {
    const back = (data: unknown) => readAnswer(decodeFlash(encodeFlash({ path: '/gate/x', data }), '/gate/x')?.data);
    const a = gateAnswer(redeemed(), scan, t);
    expect(back(a)).toEqual(a);
    const bare = gateAnswer(redeemed({ result: 'unknown' }), scan, t);
    expect(back(bare)).toEqual(bare);
    expect(back({ ...a, result: 'maybe' })).toBeNull();
    expect(back(null)).toBeNull();
  });

  it('reports a double entry only when the scanner admitted and the server does not', () => {
    expect(isDouble('admitted', 'used')).toBe(true);
    expect(isDouble('admitted', 'admitted')).toBe(false);
    expect(isDouble('used', 'used')).toBe(false);
    expect(isDouble('unknown', 'admitted')).toBe(false);
  });
});

describe('stats and CSV', () => {
  it('orders the stats by day, hour and gate, with totals', () => {
    const s = statsTable([
      { day: '2026-12-01', hour: 10, gate: 'B', admitted: 1, refused: 0 },
      { day: '2026-12-01', hour: 9, gate: 'B', admitted: 2, refused: 1 },
      { day: '2026-12-01', hour: 9, gate: 'A', admitted: 3, refused: 2 },
      { day: '2026-12-01', hour: 23, gate: 'A', admitted: 0, refused: 1 },
    ]);
    expect(s.rows.map((r) => `${r.hourText} ${r.gate}`)).toEqual(['09:00–10:00 A', '09:00–10:00 B', '10:00–11:00 B', '23:00–00:00 A']);
    expect([s.admitted, s.refused]).toEqual([6, 4]);
  });

  it('defuses formula cells and quotes what must be quoted', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+86 139')).toBe("'+86 139");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=x')).toBe("'\t=x");
    expect(csvCell('=HYPERLINK("http://e","x")')).toBe(`"'=HYPERLINK(""http://e"",""x"")"`);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('东门')).toBe('东门');
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });

  it('writes a BOM, CRLF lines, the header first', () => {
    expect(csvDocument(['a', 'b'], [['=x', '钱五']])).toBe("\uFEFFa,b\r\n'=x,钱五\r\n");
  });

  it('knows the expo-local day', () => {
    expect(expoToday(1308, Date.UTC(2026, 11, 1, 15, 59))).toBe('2026-12-01');
    expect(expoToday(1308, Date.UTC(2026, 11, 1, 16, 0))).toBe('2026-12-02');
    expect(expoToday(1106, Date.UTC(2026, 11, 1, 16, 59))).toBe('2026-12-01'); // UTC+7
  });
});

describe('the scan export’s codes (issue 30: a 24-hour staff link must not hand out every ticket)', () => {
  it('masks a code to its first 4 and last 2 characters; a short one keeps less', () => {
    expect(maskCode('PF4R5MHUHIPEQBHR')).toBe('PF4R…HR');
    expect(maskCode('ABCDEFGHIJ')).toBe('ABCD…IJ');
    expect(maskCode('ABCDEFG')).toBe('AB…G');
    expect(maskCode('ABCDE')).toBe('…');
    expect(maskCode('')).toBe('…');
    // never more than 6 of the code's characters, whatever its length
    for (const code of ['A'.repeat(64), 'AB12CD34EF', 'x']) expect([...maskCode(code)].filter((c) => c !== '…').length).toBeLessThanOrEqual(6);
  });

  it('shows codes whole only when the operator sets GATE_CSV_CODES=full', () => {
    for (const off of [undefined, null, '', 'masked', 'yes', '1', 'fullest']) expect(csvCodes(off), String(off)).toBe('masked');
    for (const on of ['full', 'FULL', ' Full ']) expect(csvCodes(on)).toBe('full');
    const scan = { at: '2026-12-01 09:12:05', gate: 'Gate 1', euCode: 'PF4R5MHUHIPEQBHR', result: 'admitted', scanId: 's1' };
    expect(scanRow(scan, 'masked')).toEqual(['2026-12-01 09:12:05', 'Gate 1', 'PF4R…HR', 'admitted', 's1']);
    expect(scanRow(scan, 'full')).toEqual(['2026-12-01 09:12:05', 'Gate 1', 'PF4R5MHUHIPEQBHR', 'admitted', 's1']);
  });
});
