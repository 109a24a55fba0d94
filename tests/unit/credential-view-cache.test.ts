/** Issue 24: the rules of the credential page's shared reads (src/lib/credential/view-cache.ts). */
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_VIEW_TTL_MS,
  dropsEntry,
  isFresh,
  keepsAnswer,
  SHARED_READS,
  VIEW_WRITES,
  viewKey,
} from '../../src/lib/credential/view-cache';

const S = 'https://api.example';
const record = (euCode: string, expoId = 1308, scope = S) => viewKey(scope, 'queryCustomerCode', { expoId, euCode })!;
const list = (expoId = 1308) => viewKey(S, 'selectBusList', { expoId })!;

describe('keys: per upstream, expo and code, never across people', () => {
  it('two codes, two expos or two upstreams never share a key', () => {
    const keys = [record('AAAA'), record('BBBB'), record('AAAA', 1128), record('AAAA', 1308, 'https://other.example')].map((k) => k.key);
    expect(new Set(keys).size).toBe(4);
    expect(record('AAAA').key).toBe(record('AAAA').key);
  });

  it('a code-scoped read has its code in the key; an expo list has none, and its params are in it', () => {
    expect(record('AAAA')).toMatchObject({ euCode: 'AAAA', expoId: 1308 });
    expect(list()).toMatchObject({ euCode: null });
    // the code a list read is called with (it has none) does not split or name the entry
    expect(viewKey(S, 'selectSiteTypeList', { expoId: 1308, euCode: 'AAAA' })!.key).toBe(viewKey(S, 'selectSiteTypeList', { expoId: 1308 })!.key);
    expect(viewKey(S, 'selectSiteDateList', { expoId: 1308, typeId: 1 })!.key).not.toBe(viewKey(S, 'selectSiteDateList', { expoId: 1308, typeId: 2 })!.key);
  });

  it('nothing is keyed on a missing code or an impossible expo', () => {
    expect(viewKey(S, 'queryCustomerCode', { expoId: 1308, euCode: '' })).toBeNull();
    expect(viewKey(S, 'selectExpoUserSiteId', { expoId: 1308 })).toBeNull();
    for (const expoId of [0, -1, 1.5, Number.NaN]) expect(viewKey(S, 'selectBusList', { expoId })).toBeNull();
  });

  it('every shared read is the credential page\'s and says whose it is', () => {
    expect(Object.keys(SHARED_READS).sort()).toEqual(['queryCustomerCode', 'selectBusList', 'selectExpoUserSiteId', 'selectSiteDateList', 'selectSiteTypeList']);
  });
});

describe('the TTL: a few seconds', () => {
  it('is 5 s, fresh before and stale from its end', () => {
    expect(CREDENTIAL_VIEW_TTL_MS).toBe(5_000);
    expect(isFresh(1_000, 1_000)).toBe(true);
    expect(isFresh(1_000, 1_000 + CREDENTIAL_VIEW_TTL_MS - 1)).toBe(true);
    expect(isFresh(1_000, 1_000 + CREDENTIAL_VIEW_TTL_MS)).toBe(false);
    // a clock that went back never makes an entry fresh for longer
    expect(isFresh(1_000, 999)).toBe(false);
    expect(isFresh(1_000, 1_000, 0)).toBe(false);
  });

  it('only an ok answer is kept', () => {
    expect(keepsAnswer({ ok: true, data: {} })).toBe(true);
    for (const r of [{ ok: false, kind: 'refused', code: 404 }, null, undefined, 'ok', { ok: 'true' }]) expect(keepsAnswer(r)).toBe(false);
  });
});

describe('writes drop what they change', () => {
  it('a gate scan drops that code\'s entries, not another code\'s, another expo\'s or the expo\'s lists', () => {
    const scan = { expoId: 1308, euCode: 'AAAA' };
    expect(dropsEntry('redeemCode', S, scan, record('AAAA'))).toBe(true);
    expect(dropsEntry('redeemCode', S, scan, viewKey(S, 'selectExpoUserSiteId', scan)!)).toBe(true);
    expect(dropsEntry('redeemCode', S, scan, record('BBBB'))).toBe(false);
    expect(dropsEntry('redeemCode', S, scan, record('AAAA', 1128))).toBe(false);
    expect(dropsEntry('redeemCode', S, scan, record('AAAA', 1308, 'https://other.example'))).toBe(false);
    expect(dropsEntry('redeemCode', S, scan, list())).toBe(false);
  });

  it('a booking also drops the expo\'s lists (what is left changed)', () => {
    const p = { expoId: 1308, euCode: 'AAAA' };
    for (const w of ['addExpoUserSite', 'deleteExpoUserSite', 'addBusUser', 'cancelBusUser'] as const) {
      expect(dropsEntry(w, S, p, list())).toBe(true);
      expect(dropsEntry(w, S, p, record('AAAA'))).toBe(true);
      expect(dropsEntry(w, S, p, record('BBBB'))).toBe(false);
      expect(dropsEntry(w, S, p, list(1128))).toBe(false);
    }
  });

  it('a registration (its code unknown beforehand) drops the whole expo; a code write without its code drops every code', () => {
    expect(dropsEntry('addUserInfo', S, { expoId: 1308 }, record('BBBB'))).toBe(true);
    expect(dropsEntry('addUserInfo', S, { expoId: 1308 }, list())).toBe(true);
    expect(dropsEntry('addUserInfo', S, { expoId: 1308 }, record('BBBB', 1128))).toBe(false);
    expect(dropsEntry('redeemCode', S, { expoId: 1308 }, record('BBBB'))).toBe(true);
  });

  it('a refund applied for or withdrawn (named by its order, not its codes) drops every code of the expo, not its lists (issue 30)', () => {
    for (const w of ['WxRefundJSAPIByOrderNo', 'cancelRefundByOrderNo'] as const) {
      expect(VIEW_WRITES[w]).toBe('codes');
      const p = { expoId: 1216 };
      expect(dropsEntry(w, S, p, record('AAAA', 1216))).toBe(true);
      expect(dropsEntry(w, S, p, viewKey(S, 'selectExpoUserSiteId', { expoId: 1216, euCode: 'BBBB' })!)).toBe(true);
      expect(dropsEntry(w, S, p, list(1216))).toBe(false);
      expect(dropsEntry(w, S, p, record('AAAA', 1308))).toBe(false);
      expect(dropsEntry(w, S, p, record('AAAA', 1216, 'https://other.example'))).toBe(false);
    }
  });

  it('every write in the table is an upstream call that changes a registration', () => {
    expect(Object.keys(VIEW_WRITES)).toEqual(
      expect.arrayContaining(['redeemCode', 'addExpoUserSite', 'deleteExpoUserSite', 'addUserInfo', 'WxRefundJSAPIByOrderNo', 'cancelRefundByOrderNo']),
    );
  });
});
