import { describe, expect, it } from 'vitest';
import { loadSuccess } from '../../src/lib/screens/success';
import type { Credential } from '../../src/lib/util/domain';
import { contact, page } from './screens-helpers';

const params = { urlId: 21308, euCode: 'EU123456', expoId: 1308, fId: 21308 };
const record = { euCode: 'EU123456', uname: 'Ann', euClass: 0, useStatus: 0 } as unknown as Credential;

describe('loadSuccess (the credential page)', () => {
  it('an unknown code is a 404 with the way to the lookup', () => {
    const d = loadSuccess(page('/success/x'), { params, variant: null }, { kind: 'unknown' });
    expect(d.status).toBe(404);
    expect(d.title).toBe('error.noData');
    expect(d.lookup).toContain('/search/21308/');
  });

  it('too many unknown codes: a 429 with Retry-After and the limit text', () => {
    const d = loadSuccess(page('/success/x'), { params, variant: null }, { kind: 'limited', retryAfterS: 90 });
    expect(d.status).toBe(429);
    expect(d.headers['retry-after']).toBe('90');
    expect(d.refused).toBe(true);
  });

  it('a found code: the offline header; the details only for the contact whose lookup found it', () => {
    const anyone = loadSuccess(page('/success/x'), { params, variant: null }, { kind: 'found', record });
    expect(anyone.status).toBe(200);
    expect(anyone.headers['x-offline-until']).toMatch(/^\d+$/);
    expect(anyone.reader).toBe(false);
    const owner = loadSuccess(page('/success/x', { contact: contact(1308, { codes: ['EU123456'] }) }), { params, variant: null }, { kind: 'found', record });
    expect(owner.reader).toBe(true);
  });

  it('the health upload on expos asking for the pledge, for the owner only', () => {
    const config = { customerWx: { healthPledge: 1 } };
    const d = loadSuccess(page('/success/x', { config, contact: contact(1308, { codes: ['EU123456'] }) }), { params, variant: null }, { kind: 'found', record });
    expect(d.health).toBe(true);
    expect(d.owner).toBe(true);
  });
});
