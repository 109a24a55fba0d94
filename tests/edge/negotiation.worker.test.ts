/**
 * Content negotiation of the edge API (issue 30, functions/api/negotiate.ts): whether a caller
 * gets JSON or the HTML answer of a form post (303 with the flash, or a small page) follows its
 * `Accept` header's q-values; `*`/`*`, an unknown type or no header gives the route's default
 * (JSON for a JSON body, HTML for a form post). Every action reads it through readInput, and the
 * health upload's 413 through the same function.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';

const app = createApp();
const testEnv = env as unknown as AppEnv;
const BASE = 'https://expo.example';
const BACK = '/IEAESearch/21308/MTMwOA/visitor';

type Answer = 'json' | 'html';

/** How a response answered: JSON, or the HTML side (a 303 or a page). */
async function answerOf(res: Response): Promise<Answer> {
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
    await res.json();
    return 'json';
  }
  expect(res.status === 303 || (res.headers.get('content-type') ?? '').startsWith('text/html'), `status ${res.status}`).toBe(true);
  return 'html';
}

/** POST /api/lang as a form (or as JSON) with the given Accept header (null: none). */
async function postLang(accept: string | null, body: 'form' | 'json', lang = 'en'): Promise<Response> {
  const fields = { lang, back: BACK };
  const headers: Record<string, string> =
    body === 'json' ? { 'content-type': 'application/json' } : { 'content-type': 'application/x-www-form-urlencoded' };
  if (accept !== null) headers['accept'] = accept;
  return app.request(
    `${BASE}/api/lang`,
    { method: 'POST', headers, body: body === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields), redirect: 'manual' },
    testEnv,
  );
}

const CASES: [accept: string | null, body: 'form' | 'json', wanted: Answer][] = [
  // q-values decide between the two
  ['text/html;q=0.9, application/json', 'form', 'json'],
  ['application/json;q=0, text/html', 'form', 'html'],
  ['application/json;q=0, text/html', 'json', 'html'],
  ['application/json;q=0.5, text/html;q=0.8', 'json', 'html'],
  ['text/html;q=0.1, application/json;q=0.2', 'form', 'json'],
  // a browser's navigation Accept is HTML
  ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'form', 'html'],
  // wildcards of a family, and media types without regard to case
  ['application/*', 'form', 'json'],
  ['text/*', 'json', 'html'],
  ['Application/JSON', 'form', 'json'],
  // neither preferred: the route's default (a JSON body is a script's, a form post a page's)
  ['*/*', 'form', 'html'],
  ['*/*', 'json', 'json'],
  [null, 'form', 'html'],
  [null, 'json', 'json'],
  ['image/png', 'form', 'html'],
  ['image/png', 'json', 'json'],
];

describe('the API answers JSON or HTML by the Accept header (issue 30)', () => {
  it.each(CASES)('Accept %j with a %s body: %s', async (accept, body, wanted) => {
    const ok = await postLang(accept, body);
    expect(await answerOf(ok)).toBe(wanted);
    // a refusal (400) is negotiated the same way: JSON, or a page with a link back
    const refused = await postLang(accept, body, 'fr');
    expect(refused.status).toBe(400);
    expect(await answerOf(refused)).toBe(wanted);
  });

  it('the health upload over 5 MB answers the same: JSON, or back to its page when HTML ranks first', async () => {
    const huge = new Uint8Array(6 * 1024 * 1024);
    const credential = '/success/MjIwMTI/SEVBTFRIMk9JMkVER0VPSQ/MjAxMg/22012';
    const upload = (accept: string) => {
      const form = new FormData();
      form.set('file', new Blob([huge]), 'h.jpg');
      return app.request(`${BASE}/api/health`, { method: 'POST', headers: { accept, referer: `${BASE}${credential}` }, body: form, redirect: 'manual' }, testEnv);
    };
    const back = await upload('application/json;q=0, text/html');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(credential);
    const json = await upload('text/html;q=0.5, application/json');
    expect(json.status).toBe(413);
    expect(await answerOf(json)).toBe('json');
  });
});
