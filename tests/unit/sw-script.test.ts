import { describe, expect, it } from 'vitest';
import { qrImagePath, routePath } from '../../src/lib/routes';
import { ALL_VARIANTS } from '../../src/lib/variants';
import { SW_IMAGE_PATTERN, SW_PAGE_PATTERN, SW_SCRIPT, showOfflineLine } from '../../src/lib/sw-script';

describe('the service worker script (issue 13 offline)', () => {
  const params = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 };

  it('parses as a script', () => {
    expect(() => new Function(SW_SCRIPT)).not.toThrow();
  });

  it('keeps every credential route and its QR image, nothing else', () => {
    for (const variant of [null, ...ALL_VARIANTS]) {
      expect(SW_PAGE_PATTERN.test(routePath({ screen: 'success', variant, params }))).toBe(true);
      expect(SW_PAGE_PATTERN.test(routePath({ screen: 'search', variant, params: { fId: 1, expoId: 1308, ty: 'visitor' } }))).toBe(false);
    }
    expect(SW_IMAGE_PATTERN.test(qrImagePath(params))).toBe(true);
    for (const path of ['/api/lookup', '/sw.js', '/', '/21308/MTMwOA/visitor', '/applyList/21308/MTMwOA/visitor']) {
      expect(SW_PAGE_PATTERN.test(path) || SW_IMAGE_PATTERN.test(path), path).toBe(false);
    }
  });

  it('shows the hidden offline line of the stored page and leaves the rest alone', () => {
    const html = '<p hidden>other</p><section><p class="offline-note" data-offline hidden role="status" data-astro-cid-x>Shown offline</p></section>';
    expect(showOfflineLine(html)).toBe('<p hidden>other</p><section><p class="offline-note" data-offline role="status" data-astro-cid-x>Shown offline</p></section>');
    expect(showOfflineLine('<p data-offline="" hidden="">x</p>')).toBe('<p data-offline="">x</p>');
    expect(showOfflineLine('<p>no line</p>')).toBe('<p>no line</p>');
  });
});
