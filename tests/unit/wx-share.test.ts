import { describe, expect, it } from 'vitest';
import {
  SHARE_URL_MAX,
  WX_JSSDK_DEFAULT_URL,
  WX_JS_API_LIST,
  appMessageShare,
  jsSdkUrl,
  shareableUrl,
  signedPageUrl,
  timelineShare,
  wantsShareCard,
  wxConfig,
} from '../../src/lib/page/wx-share';

const WECHAT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1';

describe('wantsShareCard (spec §4 "Type admin triggers a share-signature fetch")', () => {
  it('inside the messaging app for every type, and for type admin in any browser', () => {
    expect(wantsShareCard({ userAgent: WECHAT, ty: 'visitor' })).toBe(true);
    expect(wantsShareCard({ userAgent: WECHAT, ty: 'exhibitor' })).toBe(true);
    expect(wantsShareCard({ userAgent: SAFARI, ty: 'admin' })).toBe(true);
    expect(wantsShareCard({ userAgent: SAFARI, ty: 'visitor' })).toBe(false);
    expect(wantsShareCard({ userAgent: SAFARI, ty: 'Admin' })).toBe(false);
  });
});

describe('jsSdkUrl (WX_JSSDK_URL)', () => {
  it('an http(s) URL, else the vendor\'s', () => {
    expect(jsSdkUrl(undefined)).toBe(WX_JSSDK_DEFAULT_URL);
    expect(jsSdkUrl('')).toBe(WX_JSSDK_DEFAULT_URL);
    expect(jsSdkUrl('javascript:alert(1)')).toBe(WX_JSSDK_DEFAULT_URL);
    expect(jsSdkUrl('not a url')).toBe(WX_JSSDK_DEFAULT_URL);
    expect(jsSdkUrl(' http://127.0.0.1:9000/jweixin.js ')).toBe('http://127.0.0.1:9000/jweixin.js');
    expect(WX_JSSDK_DEFAULT_URL.startsWith('https://')).toBe(true);
  });
});

describe('the signed URL', () => {
  it('is the page URL without its fragment', () => {
    expect(signedPageUrl('https://s.example/1/MTMwOA/v?x=1#top')).toBe('https://s.example/1/MTMwOA/v?x=1');
    expect(signedPageUrl('https://s.example/a')).toBe('https://s.example/a');
  });

  it('must be a page of this very site, without a fragment or credentials, at most 2048 characters', () => {
    const o = 'https://s.example';
    expect(shareableUrl('https://s.example/21308/MTMwOA/visitor?f=1', o)?.pathname).toBe('/21308/MTMwOA/visitor');
    expect(shareableUrl('https://evil.example/21308/MTMwOA/visitor', o)).toBeNull();
    expect(shareableUrl('http://s.example/21308/MTMwOA/visitor', o)).toBeNull();
    expect(shareableUrl('https://s.example/a#b', o)).toBeNull();
    expect(shareableUrl('https://u:p@s.example/a', o)).toBeNull();
    expect(shareableUrl('', o)).toBeNull();
    expect(shareableUrl('/21308/MTMwOA/visitor', o)).toBeNull();
    expect(shareableUrl(`https://s.example/${'a'.repeat(SHARE_URL_MAX)}`, o)).toBeNull();
  });
});

describe('the JS-SDK calls', () => {
  const tags = { title: 'T', description: 'D', url: 'https://s.example/p', image: 'https://s.example/logo.jpg' };

  it('wx.config carries the signature, a numeric timestamp and the share APIs', () => {
    expect(wxConfig({ appId: 'wxA', timestamp: '1700000000', nonceStr: 'n', signature: 'ab' })).toEqual({
      debug: false,
      appId: 'wxA',
      timestamp: 1700000000,
      nonceStr: 'n',
      signature: 'ab',
      jsApiList: [...WX_JS_API_LIST],
    });
  });

  it('the cards are exactly the share tags', () => {
    expect(appMessageShare(tags)).toEqual({ title: 'T', desc: 'D', link: 'https://s.example/p', imgUrl: 'https://s.example/logo.jpg' });
    expect(timelineShare(tags)).toEqual({ title: 'T', link: 'https://s.example/p', imgUrl: 'https://s.example/logo.jpg' });
  });
});
