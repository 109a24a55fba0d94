import { describe, expect, it } from 'vitest';
import {
  MAX_IMAGE_ORIGINS,
  configImageOrigins,
  configImageUrls,
  imageOrigins,
  imgSrcDirective,
} from '../../src/lib/util/image-origins';

describe('image origins for the CSP img-src (issue 9 §3)', () => {
  it('reads every image field of the config, comma-separated lists split', () => {
    const urls = configImageUrls({
      customerWx: {
        headImgUrl: '/logo.jpg, https://banner.example/a.jpg',
        pcBackground: 'https://bg.example/x.png',
        bottomUrl: 'https://foot.example/1.jpg,https://foot.example/2.jpg',
        bottomUrlEn: 'https://foot-en.example/1.jpg',
        registerButtonImage: 'https://buttons.example/r.png',
        queryButtonImage: 'https://buttons.example/q.png',
        shareLog: 'https://share.example/s.jpg',
      },
      customerUrls: { headImgUrl: 'https://urls.example/h.jpg' },
      expoInfo: { showLogo: 'https://logo.example/l.png' },
    });
    expect(urls).toEqual([
      '/logo.jpg',
      'https://banner.example/a.jpg',
      'https://bg.example/x.png',
      'https://foot.example/1.jpg',
      'https://foot.example/2.jpg',
      'https://foot-en.example/1.jpg',
      'https://buttons.example/r.png',
      'https://buttons.example/q.png',
      'https://share.example/s.jpg',
      'https://urls.example/h.jpg',
      'https://logo.example/l.png',
    ]);
  });

  it('no config, no images', () => {
    expect(configImageUrls(null)).toEqual([]);
    expect(configImageOrigins(undefined)).toEqual([]);
    expect(configImageUrls({ customerWx: { headImgUrl: ' , ' } })).toEqual([]);
  });

  it('keeps http and https origins only, deduplicated, in order, lower-cased, with their port', () => {
    expect(
      imageOrigins([
        '/logo.jpg',
        'https://CDN.example/a.jpg',
        'https://cdn.example/b.jpg?x=1',
        'http://old.example/c.gif',
        'https://cdn.example:8443/d.jpg',
        'data:image/png;base64,AAAA',
        'javascript:alert(1)',
        '//protocol-relative.example/e.jpg',
        'ftp://files.example/f.jpg',
      ]),
    ).toEqual(['https://cdn.example', 'http://old.example', 'https://cdn.example:8443']);
  });

  it('drops the path, query and any credentials: only the origin reaches the header', () => {
    expect(imageOrigins(['https://user:pass@cdn.example/a.jpg;img-src *'])).toEqual(['https://cdn.example']);
  });

  it('skips what is not a plain host name (wildcards, IPv6 brackets, unparsable)', () => {
    expect(
      imageOrigins(['https://*.evil.example/a.jpg', 'https://[::1]/a.jpg', 'https://exa mple.com/a.jpg', 'https://']),
    ).toEqual([]);
  });

  it('puts internationalised host names in their ASCII form', () => {
    expect(imageOrigins(['https://bücher.example/a.jpg'])).toEqual(['https://xn--bcher-kva.example']);
  });

  it(`adds at most ${MAX_IMAGE_ORIGINS} origins (or the given cap)`, () => {
    const many = Array.from({ length: 40 }, (_, i) => `https://h${i}.example/a.jpg`);
    expect(imageOrigins(many)).toHaveLength(MAX_IMAGE_ORIGINS);
    expect(imageOrigins(many, 2)).toEqual(['https://h0.example', 'https://h1.example']);
    // Duplicates do not use up the cap.
    expect(imageOrigins(['https://a.example/1', 'https://a.example/2', 'https://b.example/3'], 2)).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('the directive names the origins, or is absent when there are none', () => {
    expect(imgSrcDirective(['https://a.example', 'https://b.example'])).toBe(
      'img-src https://a.example https://b.example',
    );
    expect(imgSrcDirective([])).toBeNull();
  });

  it("the demo's expo 2001 banner host (functions/reference seed) becomes its only origin", () => {
    expect(
      configImageOrigins({
        customerWx: {
          headImgUrl: '/logo.jpg,https://images.example/banner-2001-b.jpg',
          bottomUrl: '/logo.jpg',
          shareLog: '/logo.jpg',
        },
        customerUrls: { headImgUrl: '/logo.jpg' },
        expoInfo: { showLogo: '/logo.jpg' },
      }),
    ).toEqual(['https://images.example']);
  });
});
