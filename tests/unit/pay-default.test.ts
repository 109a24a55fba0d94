/** Issue 30: the buyer form's payment method preselected by the browser the visitor is in (src/lib/tickets/pay-default.ts). */
import { describe, expect, it } from 'vitest';
import { preselectedPayType } from '../../src/lib/tickets/pay-default';

const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.188 Mobile Safari/537.36 XWEB/1260117 MMWEBSDK/20240404 MMWEBID/1234 MicroMessenger/8.0.50.2701(0x28003252) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64';
const WECHAT_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003137) NetType/4G Language/zh_CN';
const CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('preselectedPayType', () => {
  it("inside the messaging app's browser: its own pay (1)", () => {
    expect(preselectedPayType(WECHAT_ANDROID)).toBe('1');
    expect(preselectedPayType(WECHAT_IOS)).toBe('1');
  });
  it('in any other browser, or with no user agent: the payment app (2)', () => {
    for (const ua of [CHROME, SAFARI, '', 'curl/8.5.0']) expect(preselectedPayType(ua), ua).toBe('2');
  });
  it("the visitor's own choice always wins; anything else is no choice", () => {
    expect(preselectedPayType(WECHAT_IOS, '2')).toBe('2');
    expect(preselectedPayType(CHROME, '1')).toBe('1');
    for (const bad of ['', '3', 'x', null, undefined]) {
      expect(preselectedPayType(WECHAT_IOS, bad)).toBe('1');
      expect(preselectedPayType(CHROME, bad)).toBe('2');
    }
  });
});
