import { describe, expect, it } from 'vitest';
import { HOME_TABLE, homeLinks, homeScreenFor, showTicketLookup, type HomeKind } from '../../src/lib/expo/home';
import { variantByName } from '../../src/lib/core/variants';

const kindOf = (expoId: number, wxId: number | null = null, signType: number | null = null): HomeKind =>
  homeScreenFor({ expoId, wxId, signType }).kind;
const variantOf = (expoId: number, wxId: number | null = null): string | null => {
  const s = homeScreenFor({ expoId, wxId, signType: 2 });
  return s.kind === 'variant' ? s.variant.name : null;
};

describe('home screen by expo id (spec §2.4)', () => {
  it.each([
    [976, 'baigou'],
    [1106, 'Thai'],
    [1261, 'ThaiNew'],
    [1312, 'Asia'],
    [1313, 'InAsia'],
    [1314, 'VnAsia'],
    [1316, 'Maylaysia'],
    [1317, 'vietnamNew'],
    [1262, 'IndonesianNew'],
    [1108, 'Indonesian'],
    [1113, 'vietnam'],
    [1178, 'Jakarta'],
    [1179, 'Bangkok'],
  ])('%i shows the %s lookup', (expoId, name) => {
    expect(variantOf(expoId)).toBe(name);
    expect(variantByName(name)?.expoId).toBe(expoId);
  });

  it('1308 is the IEAE lookup only with customerWx 5959; other configs get the generic page', () => {
    expect(variantOf(1308, 5959)).toBe('IEAE');
    expect(kindOf(1308, 6309, 1)).toBe('lookup');
    expect(kindOf(1308, 6310, 4)).toBe('buttons');
  });

  it.each([
    [1142, 'imagePage'],
    [498, 'nuclear'],
    [1128, 'seat'],
    [1193, 'seat'],
    [1197, 'seat'],
    [1218, 'seat'],
    [1384, 'seat'],
    [1385, 'seat'],
  ] as const)('%i is the %s screen', (expoId, kind) => expect(kindOf(expoId, 1, 4)).toBe(kind));

  it('1235 is a seat lookup only with customerWx 5413', () => {
    expect(kindOf(1235, 5413)).toBe('seat');
    expect(kindOf(1235, 61235, 4)).toBe('buttons');
  });

  it('1177 has two tabs except with customerWx 5013 and 5127', () => {
    expect(kindOf(1177, 61177, 1)).toBe('twoTabs');
    expect(homeScreenFor({ expoId: 1177, wxId: 5013, signType: 2 })).toEqual({ kind: 'lookup', lang: 'en' });
    expect(kindOf(1177, 5127, 4)).toBe('buttons');
  });

  it.each([
    [1, { kind: 'lookup', lang: 'zh' }],
    [null, { kind: 'lookup', lang: 'zh' }],
    [2, { kind: 'lookup', lang: 'en' }],
    [3, { kind: 'twoTabs' }],
    [4, { kind: 'buttons' }],
    [9, { kind: 'lookup', lang: 'zh' }],
  ])('otherwise by signType %s', (signType, screen) => {
    expect(homeScreenFor({ expoId: 2001, wxId: 62001, signType })).toEqual(screen);
  });

  it('every row names a distinct expo id and customerWx condition', () => {
    const keys = HOME_TABLE.map((r) => `${r.expoId}/${r.wxId ?? '*'}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('home links (spec §2.3, §2.4)', () => {
  it('register goes to /form, or /proving when an activity is set', () => {
    expect(homeLinks({ fId: 21216, expoId: 1216, ty: 'visitor' }, { activity: false, variant: null })).toEqual({
      register: '/form/21216/MTIxNg/visitor',
      query: '/search/21216/MTIxNg/visitor',
      ticket: '/ticket/21216/MTIxNg/visitor',
      seat: '/seat/21216/MTIxNg/visitor',
    });
    expect(homeLinks({ fId: 22001, expoId: 2001, ty: 'visitor' }, { activity: true, variant: null }).register).toBe(
      '/proving/22001/MjAwMQ/visitor',
    );
  });

  it('the ticket lookup shows for a non-empty ticket list, else for the ticket expo 1216', () => {
    expect(showTicketLookup(1216, null)).toBe(true);
    expect(showTicketLookup(2001, null)).toBe(false);
    expect(showTicketLookup(2001, true)).toBe(true);
    expect(showTicketLookup(1216, false)).toBe(false);
  });
});

describe('home routes (spec §2.3)', () => {
  it('the home, /auto{path}, /CMEF and the fashion-show landing resolve', async () => {
    const { matchRoute } = await import('../../src/lib/core/routes');
    expect(matchRoute('/21308/MTMwOA/visitor')).toMatchObject({ screen: 'home', params: { expoId: 1308, fId: 21308 } });
    expect(matchRoute('/auto/20380/Mzgw/visitor')).toMatchObject({
      screen: 'home',
      auto: true,
      params: { expoId: 380 },
    });
    expect(matchRoute('/CMEF')).toEqual({ screen: 'landing', variant: null, which: 'register' });
    expect(matchRoute('/AsiaFashionShow')).toEqual({ screen: 'landing', variant: null, which: 'fashion' });
    expect(matchRoute('/CMEF/x')).toBeNull();
  });
});
