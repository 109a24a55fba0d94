import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BANNER,
  bannerAutoplayMs,
  bannerSlides,
  footerImages,
  nextIndex,
  prevIndex,
  tapAction,
} from '../../src/lib/expo/carousel';
import { footerAutoplayMs } from '../../src/lib/expo/carousel';

describe('banner carousel (spec §2.5)', () => {
  it('images from customerWx.headImgUrl, else customerUrls.headImgUrl, jump links by position', () => {
    expect(
      bannerSlides({
        wxHeadImgUrl: '/a.jpg, https://cdn.example/b.jpg',
        urlsHeadImgUrl: '/c.jpg',
        headjumpUrl: 'https://example.com/x,javascript:alert(1)',
      }),
    ).toEqual([
      { src: '/a.jpg', jump: 'https://example.com/x' },
      { src: 'https://cdn.example/b.jpg', jump: 'javascript:alert(1)' },
    ]);
    expect(bannerSlides({ urlsHeadImgUrl: '/c.jpg' })).toEqual([{ src: '/c.jpg', jump: '' }]);
  });

  it('an empty list holds the default logo; unsafe image addresses are dropped', () => {
    expect(bannerSlides({})).toEqual([{ src: DEFAULT_BANNER, jump: '' }]);
    expect(bannerSlides({ wxHeadImgUrl: 'javascript:alert(1)' })).toEqual([{ src: '/logo.jpg', jump: '' }]);
  });

  it('tap: preview without a link, open an http(s) link, toast for any other link', () => {
    const slides = [
      { src: '/a.jpg', jump: '' },
      { src: '/b.jpg', jump: 'https://example.com/x' },
      { src: '/c.jpg', jump: 'javascript:alert(1)' },
      { src: '/d.jpg', jump: 'www.example.com' },
    ];
    expect(tapAction(slides, 0)).toEqual({ kind: 'preview', index: 0 });
    expect(tapAction(slides, 1)).toEqual({ kind: 'open', href: 'https://example.com/x' });
    expect(tapAction(slides, 2)).toEqual({ kind: 'jump-error' });
    expect(tapAction(slides, 3)).toEqual({ kind: 'jump-error' });
  });

  it('autoplay 3000 ms for the special expo, 10000 ms for others (spec §9)', () => {
    expect(bannerAutoplayMs(1142)).toBe(3000);
    expect(bannerAutoplayMs(2001)).toBe(10000);
    expect(bannerAutoplayMs(null)).toBe(10000);
  });

  it('indexes wrap', () => {
    expect(nextIndex(2, 3)).toBe(0);
    expect(prevIndex(0, 3)).toBe(2);
    expect(nextIndex(0, 0)).toBe(0);
  });

  it('footer images: bottomUrl in Chinese, bottomUrlEn otherwise', () => {
    const wx = { bottomUrl: '/zh.jpg', bottomUrlEn: '/en.jpg,javascript:x' };
    expect(footerImages(wx, 'zh')).toEqual(['/zh.jpg']);
    expect(footerImages(wx, 'thai')).toEqual(['/en.jpg']);
    expect(footerImages(null, 'en')).toEqual([]);
  });
});

describe('footer carousel autoplay (spec §2.5)', () => {
  it('turns every 3000 ms only for the expo configured so; the others stay', () => {
    expect(footerAutoplayMs(1142)).toBe(3000);
    expect(footerAutoplayMs(1308)).toBe(0);
    expect(footerAutoplayMs(null)).toBe(0);
  });
});
