import { describe, expect, it } from 'vitest';
import { bannerAutoplayMs, footerLink, showDesktopBanner } from '../../src/lib/expo/shell';

describe('app shell rules (spec §2.5)', () => {
  it.each([
    ['/1/MTMwOA/visitor', 1308, true],
    ['/order/1', 1308, false],
    ['/orderDetails', null, false],
    ['/article', null, false],
    ['/auto/1/MzgwCg/x', 380, false],
    ['/jjcz2024', null, false],
    ['/1/MTE0Mg/visitor', 1142, false],
  ])('desktop banner on %s (expo %s): %s', (pathname, expoId, shown) => {
    expect(showDesktopBanner({ pathname, expoId })).toBe(shown);
  });

  it('footer link: expoInfo overrides text and link; only http(s) links', () => {
    expect(footerLink(1308, { bottomHref: 'https://org.example', bottomInstructions: 'By Org' })).toEqual({
      href: 'https://org.example',
      text: 'By Org',
    });
    expect(footerLink(1308, { bottomHref: 'javascript:alert(1)', bottomInstructions: '' })?.href).toMatch(/^https:/);
    expect(footerLink(1308, null)?.text).toBeNull();
    expect(footerLink(1142, null)).toBeNull();
  });

  it('banner autoplay: 3000 ms for the special expo, 10000 ms otherwise (spec §9)', () => {
    expect(bannerAutoplayMs(1142)).toBe(3000);
    expect(bannerAutoplayMs(1308)).toBe(10000);
    expect(bannerAutoplayMs(null)).toBe(10000);
  });
});
