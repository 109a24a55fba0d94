import { describe, expect, it } from 'vitest';
import { absoluteImage, DEFAULT_SHARE_IMAGE, personalShareUrl, shareMeta, shareUrl, shareUserId } from '../../src/lib/page/share';

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

describe('shareUserId (spec §1 personal share)', () => {
  const secret = 'a-test-secret-of-enough-length';
  it('is a short signed id: stable for a registration, different for another, never the code itself', async () => {
    const a = await shareUserId(secret, 1308, 'IWHBZIMY');
    expect(a).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(await shareUserId(secret, 1308, 'IWHBZIMY')).toBe(a);
    expect(await shareUserId(secret, 1308, 'IWHBZIMZ')).not.toBe(a);
    expect(await shareUserId(secret, 1309, 'IWHBZIMY')).not.toBe(a);
    expect(await shareUserId('another-secret-of-enough-length', 1308, 'IWHBZIMY')).not.toBe(a);
    expect(a).not.toContain('IWHBZIMY');
  });

  it('refuses a short secret', async () => {
    await expect(shareUserId('short', 1308, 'X')).rejects.toThrow();
  });

  it('a personal share link titles the page with the name and the invite text', async () => {
    const link = personalShareUrl(new URL('https://expo.example/21308/MTMwOA/visitor'), '王三', await shareUserId(secret, 1308, 'E'));
    const meta = shareMeta({ config: { wechatShare: 'Expo 2027' }, pageUrl: new URL(link), fallback, invites });
    expect(meta.title).toBe('王三 invites you to visit · Expo 2027');
    expect(new URL(meta.url).searchParams.get('defineName')).toBe('王三');
  });
});
