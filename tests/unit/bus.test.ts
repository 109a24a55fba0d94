/** The shuttle bus rules (src/lib/bus/bus.ts) and its links (src/lib/core/routes.ts): spec §2.3 `/bus`, `/busInfo`. */
import { describe, expect, it } from 'vitest';
import { BUS_PART_KEYS, departureOffer, departureText, seatsLeft, shownLines, type BusLine, type BusReservation } from '../../src/lib/bus/bus';
import { isTranslationKey } from '../../src/i18n';
import { BUS_PARTS, matchRoute, parseBusLink, routePath } from '../../src/lib/core/routes';
import { isTicketNext } from '../../src/lib/tickets/paths';
import { encodeId } from '../../src/lib/util/ids';

const line: BusLine = {
  id: 801,
  name: 'Metro line',
  note: '',
  stops: [{ id: 8011, name: 'Exit B' }],
  departures: [
    { id: 8101, departTime: '2026-12-01 08:30:00', capacity: 40, booked: 12 },
    { id: 8103, departTime: '2026-12-02 08:30:00', capacity: 40, booked: 40 },
  ],
};
const seat = (more: Partial<BusReservation> = {}): BusReservation => ({
  id: 1,
  lineId: 801,
  lineName: 'Metro line',
  departureId: 8101,
  departTime: '2026-12-01 08:30:00',
  stopId: 8011,
  stopName: 'Exit B',
  ...more,
});
const params = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308, euUserId: 100001 };

describe('bus rules', () => {
  it('seats left never go below 0; times show to the minute', () => {
    expect(seatsLeft({ id: 1, departTime: '', capacity: 40, booked: 39 })).toBe(1);
    expect(seatsLeft({ id: 1, departTime: '', capacity: 2, booked: 5 })).toBe(0);
    expect(departureText('2026-12-01 08:30:00')).toBe('2026-12-01 08:30');
    expect(departureText(' odd ')).toBe('odd');
  });

  it('a departure offers: held (mine), lineHeld (another of the line is mine), full, reserve', () => {
    const [open, full] = line.departures as [BusLine['departures'][number], BusLine['departures'][number]];
    expect(departureOffer(line, open, [])).toBe('reserve');
    expect(departureOffer(line, full, [])).toBe('full');
    expect(departureOffer(line, open, [seat()])).toBe('held');
    expect(departureOffer(line, full, [seat()])).toBe('lineHeld');
    expect(departureOffer(line, open, [seat({ lineId: 802, departureId: 8105 })])).toBe('reserve');
  });

  it('shows at most 20 lines of 50 departures, none without a stop or a departure', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...line, id: i + 1, departures: Array.from({ length: 60 }, (_, j) => ({ id: j + 1, departTime: 't', capacity: 1, booked: 0 })) }));
    const shown = shownLines([{ ...line, stops: [] }, { ...line, departures: [] }, ...many]);
    expect(shown).toHaveLength(20);
    expect(shown[0]?.departures).toHaveLength(50);
  });

  it('every part of a link has a catalogue key', () => {
    for (const part of BUS_PARTS) expect(isTranslationKey(BUS_PART_KEYS[part]), part).toBe(true);
  });
});

describe('bus links', () => {
  it('round-trips /bus and /busInfo', () => {
    for (const which of ['bus', 'busInfo'] as const) {
      const path = routePath({ screen: 'bus', which, params });
      expect(path).toBe(`/${which}/${encodeId(21308)}/${encodeId('IWHBZIMYEOZETLFI')}/${encodeId(1308)}/21308/100001`);
      expect(matchRoute(path)).toEqual({ screen: 'bus', variant: null, which, link: { params, missing: [], expoId: 1308, fId: 21308 } });
    }
  });

  it('an incomplete legacy link is a page naming what is missing, never a 404', () => {
    expect(matchRoute('/bus')).toMatchObject({ screen: 'bus', link: { params: null, missing: [...BUS_PARTS] } });
    expect(matchRoute('/busInfo/')).toMatchObject({ screen: 'bus', which: 'busInfo', link: { params: null } });
    const noUser = `/bus/${encodeId(21308)}/${encodeId('ABC')}/${encodeId(1308)}/21308`;
    expect(matchRoute(noUser)).toMatchObject({ link: { params: null, missing: ['euUserId'], expoId: 1308, fId: 21308 } });
    expect(parseBusLink([encodeId(21308), '!!', encodeId(1308), 'x', '0'])).toMatchObject({ params: null, missing: ['euCode', 'fId', 'euUserId'], expoId: 1308, fId: 21308 });
    expect(parseBusLink(['a', 'b', 'c', 'd', 'e', 'f'])).toBeNull();
    expect(matchRoute('/bus/a/b/c/d/e/f')).toBeNull();
  });

  it('an encoded euUserId is read too', () => {
    expect(parseBusLink([encodeId(21308), encodeId('ABC'), encodeId(1308), '21308', encodeId(7)])?.params?.euUserId).toBe(7);
  });
});

describe('/order, the purchase entry', () => {
  it('is a ticket page, and the lookup may send a verified buyer there', () => {
    expect(matchRoute('/order/21308/MTMwOA/visitor')).toMatchObject({ screen: 'ticket', which: 'order', params: { fId: 21308, expoId: 1308 } });
    expect(routePath({ screen: 'ticket', which: 'order', params: { fId: 21308, expoId: 1308, ty: 'visitor' } })).toBe('/order/21308/MTMwOA/visitor');
    expect(isTicketNext('/order/21308/MTMwOA/visitor', 1308)).toBe(true);
    expect(isTicketNext('/order/21308/MTMwOA/visitor', 1216)).toBe(false);
  });
});
