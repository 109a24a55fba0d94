import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../functions/env';
import { upstreamFor } from '../../functions/upstream';
import { bannerSlides } from '../../src/lib/expo/carousel';
import { pageLang } from '../../src/lib/expo/config-apply';
import { homeScreenFor, type HomeKind } from '../../src/lib/expo/home';

/**
 * Spec §2.4 table-driven against the seeded reference upstream: each home url's config, read
 * through the upstream client as the home page reads it, selects the screen the spec lists.
 * (The page itself renders in Astro; tests/e2e/home.spec.ts checks each screen in a browser.)
 */
const upstream = upstreamFor(env as unknown as AppEnv);

async function screenOf(expoId: number, fId: number) {
  const r = await upstream.getCustomerId({ expoId, fId, ty: 'visitor' });
  if (!r.ok) throw new Error(`getCustomerId ${expoId}/${fId}: ${r.code} ${r.msg}`);
  const wx = r.data.customerWx;
  return { screen: homeScreenFor({ expoId, wxId: wx?.id ?? null, signType: wx?.signType ?? null }), data: r.data };
}

const CASES: ReadonlyArray<[expoId: number, fId: number, kind: HomeKind, variant?: string]> = [
  [976, 20976, 'variant', 'baigou'],
  [1106, 21106, 'variant', 'Thai'],
  [1261, 21261, 'variant', 'ThaiNew'],
  [1312, 21312, 'variant', 'Asia'],
  [1313, 21313, 'variant', 'InAsia'],
  [1314, 21314, 'variant', 'VnAsia'],
  [1316, 21316, 'variant', 'Maylaysia'],
  [1317, 21317, 'variant', 'vietnamNew'],
  [1308, 21308, 'variant', 'IEAE'],
  [1308, 31308, 'lookup'],
  [1262, 21262, 'variant', 'IndonesianNew'],
  [1108, 21108, 'variant', 'Indonesian'],
  [1113, 21113, 'variant', 'vietnam'],
  [1142, 21142, 'imagePage'],
  [498, 20498, 'nuclear'],
  [1128, 21128, 'seat'],
  [1193, 21193, 'seat'],
  [1197, 21197, 'seat'],
  [1218, 21218, 'seat'],
  [1384, 21384, 'seat'],
  [1385, 21385, 'seat'],
  [1235, 21235, 'seat'],
  [1178, 21178, 'variant', 'Jakarta'],
  [1179, 21179, 'variant', 'Bangkok'],
  [1177, 21177, 'twoTabs'],
  [1177, 31177, 'lookup'],
  [1177, 41177, 'buttons'],
  [2001, 22001, 'lookup'],
  [2002, 22002, 'lookup'],
  [2003, 22003, 'twoTabs'],
  [1216, 21216, 'buttons'],
  [2005, 22005, 'lookup'],
];

describe('home screen of each seeded §2.4 case (reference upstream)', () => {
  it.each(CASES)('expo %i url %i → %s %s', async (expoId, fId, kind, variant) => {
    const { screen } = await screenOf(expoId, fId);
    expect(screen.kind).toBe(kind);
    if (variant) expect(screen.kind === 'variant' && screen.variant.name).toBe(variant);
  });

  it('config application with the seed: 2002 (signType 2) forces English; 1216 (signType 4, languageType 1) Chinese', async () => {
    const en = await screenOf(2002, 22002);
    expect(pageLang({ expoId: 2002, wx: en.data.customerWx, cookieLang: 'zh' })).toMatchObject({
      lang: 'en',
      forced: true,
    });
    const zh = await screenOf(1216, 21216);
    expect(pageLang({ expoId: 1216, wx: zh.data.customerWx, cookieLang: 'en' })).toMatchObject({
      lang: 'zh',
      forced: true,
    });
  });

  it("2001's banner: two images, one valid and one invalid jump link (spec §2.5)", async () => {
    const { data } = await screenOf(2001, 22001);
    const slides = bannerSlides({
      wxHeadImgUrl: data.customerWx?.headImgUrl,
      urlsHeadImgUrl: data.customerUrls?.headImgUrl,
      headjumpUrl: data.customerWx?.headjumpUrl,
    });
    expect(slides).toEqual([
      { src: '/logo.jpg', jump: 'https://example.com/expo-2001' },
      { src: 'https://images.example/banner-2001-b.jpg', jump: 'javascript:alert(1)' },
    ]);
  });
});
