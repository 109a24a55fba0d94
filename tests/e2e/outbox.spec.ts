/**
 * The development outbox as the browser specs read it (functions/reference/outbox.ts): by
 * contact, and by contact and expo (`/dev/outbox.json?to=&expoId=`), through the built Worker.
 * One contact is sent codes on two expos; each expo's code is the one its lookup accepts.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { IEAE_VISITOR, latestOutboxCode, lookupPath, type LookupTarget, test, visitorHeaders } from './fixtures';

/** Expo 1108 (Indonesian), visitor url 21108: one@demo.test has one registration there too (SEED.md). */
const INDONESIAN_VISITOR: LookupTarget = {
  expoId: 1108,
  urlId: 21108,
  ty: 'visitor',
  variant: 'Indonesian',
  f: '',
  back: lookupPath('IndonesianSearch', 21108, 1108),
};

const EMAIL = 'one@demo.test';

function fields(target: LookupTarget): Record<string, string> {
  const { expoId, urlId, ty, variant, f, back } = target;
  return { expoId: String(expoId), urlId: String(urlId), ty, variant, f, back, checkType: '2', email: EMAIL };
}

/** A no-JS lookup post with `code` on `target`: the Location of its 303. */
async function lookUp(request: APIRequestContext, target: LookupTarget, code: string): Promise<string> {
  const res = await request.post('/api/lookup', { form: { ...fields(target), code }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
  return new URL(res.headers()['location'] ?? '', 'http://x').pathname;
}

test('the dev outbox answers by contact and expo; each expo takes only its own code', { tag: '@http' }, async ({
  playwright,
  baseURL,
}) => {
  // Its own browser for each send (the edge's 60 s resend rule is a cookie per browser).
  const sendOn = async (target: LookupTarget, n: number) => {
    const browser = await playwright.request.newContext({ baseURL: baseURL ?? '', extraHTTPHeaders: visitorHeaders(test.info(), n) });
    const res = await browser.post('/api/send-code', { form: fields(target), maxRedirects: 0 });
    expect(res.status(), await res.text()).toBe(303);
    return browser;
  };
  const on1308 = await sendOn(IEAE_VISITOR, 1);
  const on1108 = await sendOn(INDONESIAN_VISITOR, 2);
  try {
    const code1308 = await latestOutboxCode(on1308, EMAIL, 1308);
    const code1108 = await latestOutboxCode(on1108, EMAIL, 1108);
    expect(code1308?.code).toMatch(/^\d{6}$/);
    expect(code1108?.code).toMatch(/^\d{6}$/);
    // By contact alone: the latest of either expo (1108's was sent last).
    expect(await latestOutboxCode(on1308, EMAIL)).toEqual(code1108);
    // Unless the two codes happen to be equal, 1108's code is refused on 1308 (back to the lookup page) …
    if (code1108?.code !== code1308?.code) {
      expect(await lookUp(on1308, IEAE_VISITOR, code1108?.code ?? '')).toBe(IEAE_VISITOR.back);
    }
    // … and each expo's own code leads to that expo's credential.
    expect(await lookUp(on1308, IEAE_VISITOR, code1308?.code ?? '')).toMatch(/^\/IEAESuccess\//);
    expect(await lookUp(on1108, INDONESIAN_VISITOR, code1108?.code ?? '')).toMatch(/^\/IndonesianSuccess\//);
    // A contact no code was sent to: none, with or without an expo (other specs on this
    // worker's server may have sent one@demo.test codes on other expos); a malformed expo id: 400.
    const nobody = `outbox-nobody-${test.info().testId}@demo.test`;
    expect(await latestOutboxCode(on1308, nobody)).toBeNull();
    expect(await latestOutboxCode(on1308, nobody, 1308)).toBeNull();
    expect((await on1308.get(`/dev/outbox.json?to=${EMAIL}&expoId=x`)).status()).toBe(400);
  } finally {
    await on1308.dispose();
    await on1108.dispose();
  }
});
