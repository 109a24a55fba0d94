/**
 * The lookup island's SERVER render, which is the whole form when JavaScript is off
 * (DESIGN.md: forms work with JS disabled). Rendered with react-dom/server, as Astro does.
 */
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import LookupForm from '../../src/islands/LookupForm';
import { LOOKUP_STRING_KEYS, type LookupFormProps, type LookupStringKey } from '../../src/islands/lookup-types';
import { packCountries } from '../../src/lib/form/countries';
import { COUNTRIES } from '../../src/lib/form/country-list';

const strings = Object.fromEntries(LOOKUP_STRING_KEYS.map((k) => [k, `[${k}]`])) as Record<LookupStringKey, string>;
strings['search.countdown'] = 'Getting now ({{n}})';

function props(over: Partial<LookupFormProps> = {}): LookupFormProps {
  return {
    hidden: {
      expoId: '1261',
      urlId: '10001',
      ty: 'visitor',
      variant: 'ThaiNew',
      list: '',
      f: 'x&y',
      back: '/ThaiNewSearch/10001/MTI2MQ/visitor',
      next: '',
      define: '',
    },
    modes: ['phone', 'email'],
    tabs: false,
    checkType: 1,
    checkTypeExplicit: false,
    modeHrefs: {
      phone: '/ThaiNewSearch/10001/MTI2MQ/visitor?mode=1',
      email: '/ThaiNewSearch/10001/MTI2MQ/visitor?mode=2',
    },
    emailWithoutCode: false,
    values: { areaCode: '+66', phone: '812345678', email: '', code: '' },
    error: null,
    notice: null,
    toast: null,
    resendIn: 0,
    emailSessionKey: 'email',
    lang: 'en',
    countries: packCountries(COUNTRIES),
    strings,
    toastStrings: { 'error.generic': '[error.generic]' },
    ...over,
  };
}
const render = (over: Partial<LookupFormProps> = {}) => renderToString(createElement(LookupForm, props(over)));
/** The opening tag of the element with this id (or the first tag matching `re`). */
const tag = (html: string, re: RegExp): string => html.match(re)?.[0] ?? '';
const byId = (html: string, id: string) => tag(html, new RegExp(`<[a-z]+[^>]*\\bid="${id}"[^>]*>`));

describe('no-JS lookup form (server render)', () => {
  it('is a real form posting to /api/lookup, with native validation on', () => {
    const html = render();
    const form = tag(html, /<form[^>]*>/);
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/api/lookup"');
    expect(form).not.toContain('novalidate');
  });

  it('carries the hidden fields and the check type', () => {
    const html = render();
    for (const [name, value] of Object.entries({
      expoId: '1261',
      urlId: '10001',
      ty: 'visitor',
      variant: 'ThaiNew',
      f: 'x&amp;y',
      back: '/ThaiNewSearch/10001/MTI2MQ/visitor',
      checkType: '1',
    })) {
      expect(html).toContain(`<input type="hidden" name="${name}" value="${value}"/>`);
    }
  });

  it('phone mode: a labelled select of every country, the current code selected, English names', () => {
    const html = render();
    const select = byId(html, 'lookup-areaCode');
    expect(select).toMatch(/^<select[^>]*name="areaCode"/);
    expect(html).toContain('<label id="lookup-areaCode-label" for="lookup-areaCode">[search.country]</label>');
    const options = html.match(/<option[^>]*>[^<]*<\/option>/g) ?? [];
    expect(options).toHaveLength(COUNTRIES.length + 1);
    expect(options[0]).toBe('<option value="">[search.selectCountry]</option>');
    expect(html).toContain('<option value="+66" selected="">+66 Thailand</option>');
    expect(html).not.toContain('lookup-picker');
  });

  it('Chinese names in zh and tw (traditional in tw, issue 14)', () => {
    expect(render({ lang: 'zh' })).toContain('>+66 泰国</option>');
    expect(render({ lang: 'tw', countries: packCountries(COUNTRIES, 'tw') })).toContain('>+86 中國大陸</option>');
  });

  it('phone and code inputs with their keyboards and autofill hints, each with a visible label', () => {
    const html = render();
    const phone = byId(html, 'lookup-phone');
    expect(phone).toContain('name="phone"');
    expect(phone).toContain('inputMode="tel"');
    expect(phone).toContain('autoComplete="tel-national"');
    expect(phone).toContain('value="812345678"');
    expect(html).toContain('<label for="lookup-phone">[search.phone]</label>');
    const code = byId(html, 'lookup-code');
    expect(code).toContain('name="code"');
    expect(code).toContain('inputMode="numeric"');
    expect(code).toContain('pattern="[0-9]*"');
    expect(code).toContain('autoComplete="one-time-code"');
    expect(html).toContain('<label for="lookup-code">[search.code]</label>');
  });

  it('send-code is an enabled submit button to /api/send-code without validation; submit says search.submit', () => {
    const html = render();
    const send = tag(html, /<button[^>]*formAction="\/api\/send-code"[^>]*>[^<]*/);
    expect(send).toContain('type="submit"');
    expect(send).toContain('formNoValidate=""');
    expect(send).not.toContain('disabled');
    expect(send).toMatch(/>\[search\.sendCode\]$/);
    expect(html).toMatch(/<button type="submit" class="btn lookup-submit">\[search\.submit\]<\/button>/);
  });

  it('a pending resend shows the countdown label (what the island shows once hydrated: no shift, issue 14) and stays enabled (the server refuses a too-early one)', () => {
    const send = tag(render({ resendIn: 42 }), /<button[^>]*formAction="\/api\/send-code"[^>]*>[^<]*/);
    expect(send).not.toContain('disabled');
    expect(send).toMatch(/>Getting now \(42\)$/);
    const idle = tag(render({ resendIn: 0 }), /<button[^>]*formAction="\/api\/send-code"[^>]*>[^<]*/);
    expect(idle).toMatch(/>\[search\.sendCode\]$/);
  });

  it('Enter in a field looks up: the first submit button of the form is a hidden lookup button', () => {
    const html = render();
    const first = tag(html, /<button[^>]*>/);
    expect(first).toContain('type="submit"');
    expect(first).not.toContain('formAction');
    expect(first).toContain('tabindex="-1"');
    expect(first).toContain('aria-hidden="true"');
  });

  it('e-mail mode: a labelled e-mail input, no phone fields', () => {
    const html = render({ checkType: 2, values: { areaCode: '', phone: '', email: 'a@b.com', code: '' } });
    const email = byId(html, 'lookup-email');
    expect(email).toContain('name="email"');
    expect(email).toContain('type="email"');
    expect(email).toContain('inputMode="email"');
    expect(email).toContain('autoComplete="email"');
    expect(email).toContain('value="a@b.com"');
    expect(html).toContain('<label for="lookup-email">[search.email]</label>');
    expect(html).not.toContain('name="phone"');
    expect(html).not.toContain('name="areaCode"');
    expect(html).toContain('name="code"');
  });

  it('e-mail without code (site 10542): no code field, no send-code button', () => {
    const html = render({ checkType: 2, emailWithoutCode: true, modes: ['email'] });
    expect(html).not.toContain('name="code"');
    expect(html).not.toContain('/api/send-code');
    expect(html).not.toContain('lookup-default');
  });

  it('e-mail without code still has the code in phone mode', () => {
    expect(render({ checkType: 1, emailWithoutCode: true })).toContain('name="code"');
  });

  it('mode links to ?mode=, the active one marked current; none with a single mode', () => {
    const html = render();
    expect(html).toContain(
      '<a class="lookup-mode" href="/ThaiNewSearch/10001/MTI2MQ/visitor?mode=1" aria-current="true">',
    );
    expect(html).toContain('<a class="lookup-mode" href="/ThaiNewSearch/10001/MTI2MQ/visitor?mode=2">');
    expect(html).toContain('class="lookup-modes"');
    expect(render({ tabs: true })).toContain('class="lookup-modes lookup-tabs"');
    expect(render({ modes: ['email'], checkType: 2 })).not.toContain('lookup-mode');
  });

  it('a field error: message under the field in an alert, the field invalid, described by it and focused', () => {
    const html = render({ error: { field: 'phone', message: 'Incorrect phone number format' } });
    const phone = byId(html, 'lookup-phone');
    expect(phone).toContain('aria-invalid="true"');
    expect(phone).toContain('aria-describedby="lookup-phone-error"');
    expect(phone).toContain('autofocus=""');
    expect(html).toContain(
      '<p id="lookup-phone-error" class="lookup-error" role="alert">Incorrect phone number format</p>',
    );
    expect(byId(html, 'lookup-code')).not.toContain('aria-invalid');
  });

  it('an area-code error marks the select', () => {
    const select = byId(render({ error: { field: 'areaCode', message: 'x' } }), 'lookup-areaCode');
    expect(select).toContain('aria-invalid="true"');
    expect(select).toContain('aria-describedby="lookup-areaCode-error"');
  });

  it('notices above the form: status for info, alert for errors', () => {
    const info = render({ notice: { tone: 'info', message: 'A code was sent' } });
    expect(info).toMatch(/<p class="notice info" role="status">A code was sent<\/p>.*<form/);
    const err = render({ notice: { tone: 'error', message: 'No data was found' } });
    expect(err).toContain('<p class="notice" role="alert">No data was found</p>');
  });

  it('no inline styles (the CSP allows hashed styles only)', () => {
    expect(render({ error: { field: 'code', message: 'x' }, notice: { tone: 'info', message: 'y' } })).not.toContain(
      'style=',
    );
  });
});
