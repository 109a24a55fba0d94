import { describe, expect, it } from 'vitest';
import { absoluteImage, DEFAULT_SHARE_IMAGE, personalShareUrl, shareMeta, shareUrl } from '../../src/lib/page/share';

const invites = '{{name}} invites you to visit';
const fallback = { title: 'Expo', description: 'Pre-register', image: '/logo.jpg' };

describe('share previews (spec §1)', () => {
  it('title, description, link and image from the config, absolute', () => {
    const meta = shareMeta({
      config: { wechatShare: 'Come!', wecharDescription: 'Get your badge', shareLog: '/share.jpg' },
      pageUrl: new URL('https://expo.example/21308/MTMwOA/visitor?code=abc&state=x&f=1'),
      fallback,
      invites,
    });
    expect(meta).toEqual({
      title: 'Come!',
      description: 'Get your badge',
      url: 'https://expo.example/21308/MTMwOA/visitor?f=1',
      image: 'https://expo.example/share.jpg',
    });
  });

  it('falls back to the page title, description and image', () => {
    const meta = shareMeta({ config: null, pageUrl: new URL('https://expo.example/a'), fallback, invites });
    expect(meta).toMatchObject({ title: 'Expo', description: 'Pre-register', image: 'https://expo.example/logo.jpg' });
  });

  it('with no share image and no page image, the card still has one: the product logo, absolute (issue 10)', () => {
    const noImage = { ...fallback, image: null };
    const meta = shareMeta({ config: { shareLog: '' }, pageUrl: new URL('https://expo.example/1/MQ/v'), fallback: noImage, invites });
    expect(meta.image).toBe(`https://expo.example${DEFAULT_SHARE_IMAGE}`);
    const unsafe = shareMeta({ config: { shareLog: 'javascript:alert(1)' }, pageUrl: new URL('https://expo.example/a'), fallback: { ...fallback, image: 'data:x' }, invites });
    expect(unsafe.image).toBe('https://expo.example/logo.jpg');
  });

  it('a personal share is titled with the name plus the invites text, and keeps its parameters', () => {
    const url = new URL(personalShareUrl(new URL('https://expo.example/1/MQ/v?code=1'), 'Ann Lee', '77'));
    expect(url.search).toBe('?defineName=Ann+Lee&shareUserId=77');
    const meta = shareMeta({ config: { wechatShare: 'Come!' }, pageUrl: url, fallback, invites });
    expect(meta.title).toBe('Ann Lee invites you to visit · Come!');
    expect(meta.url).toBe(url.href);
  });

  it('needs both parameters for a personal share', () => {
    const meta = shareMeta({
      config: null,
      pageUrl: new URL('https://expo.example/a?defineName=Ann'),
      fallback,
      invites,
    });
    expect(meta.title).toBe('Expo');
  });

  it('never uses a script or data address as image', () => {
    expect(absoluteImage('javascript:alert(1)', 'https://expo.example')).toBeNull();
    expect(absoluteImage('data:image/png;base64,AAAA', 'https://expo.example')).toBeNull();
    expect(absoluteImage('//evil.example/x.jpg', 'https://expo.example')).toBeNull();
    expect(absoluteImage('https://cdn.example/a.jpg,https://cdn.example/b.jpg', 'https://expo.example')).toBe(
      'https://cdn.example/a.jpg',
    );
  });

  it('drops the login code from a shared link', () => {
    expect(shareUrl(new URL('https://expo.example/a?code=1&state=2&openid=3#x'))).toBe('https://expo.example/a');
  });
});
