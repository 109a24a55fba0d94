/** The business-card camera over fake ports, in node: every outcome the adapter renders. */
import { describe, expect, it, vi } from 'vitest';
import { camera, type CameraPorts } from '../../src/lib/actions/camera';
import { jsonOf, type ActionContext } from '../../src/lib/actions/outcome';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { okReply } from './upstream-fakes';

const SECRET = 'a-test-secret-of-32-characters!!';
const NOW = Date.UTC(2026, 10, 25, 3, 0, 0);
const t: ActionContext['t'] = (k) => k;
const PAGE = { route: 'IEAEForm', path: `21308/${encodeId(1308)}/visitor` };
/** The first bytes of a JPEG, as base64. */
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD';
const on = { customerForm: [], customerWx: { isOpenBusinessCard: 1 }, activity: null };
const ok = okReply;

function ports(up: Partial<CameraPorts['upstream']> = {}): CameraPorts {
  return { upstream: { getCustomerId: vi.fn(async () => ok(on)), camera5: vi.fn(async () => ok({ uiName: 'Ann', uiCompany: 'Co' })), ...up }, secret: SECRET };
}

async function shoot(fields: Record<string, string>, p = ports(), proven = true) {
  const cookies = proven ? { [CONTACT_COOKIE]: await signContact({ expoId: 1308, contact: 'a@demo.test', checkType: 2 }, SECRET, NOW) } : {};
  const ctx: ActionContext = { lang: 'en', t, json: true, origin: 'https://expo.test', cookies, now: NOW };
  const o = await camera.run(camera.input.parse({ ...PAGE, image: JPEG, ...fields }), p, ctx);
  return { o, ...jsonOf(o, t) };
}

describe('camera', () => {
  it('a page no route names is a broken request', async () => {
    expect((await shoot({ route: 'Nope' })).o).toMatchObject({ kind: 'broken' });
  });
  it('no proven contact: 401 before any upstream call', async () => {
    const p = ports();
    expect(await shoot({}, p, false)).toMatchObject({ status: 401, body: { code: 401, msg: 'form.verifyFirst', data: null } });
    expect(p.upstream.getCustomerId).not.toHaveBeenCalled();
  });
  it('not an image: the camera message', async () => {
    expect((await shoot({ image: 'aGVsbG8=' })).body).toEqual({ code: 400, msg: 'home.camera', data: null });
  });
  it('the expo turns the card off: 403', async () => {
    const p = ports({ getCustomerId: async () => ok({ ...on, customerWx: null }) });
    expect(await shoot({}, p)).toMatchObject({ status: 403, body: { code: 403, msg: 'form.cameraOff' } });
    expect(p.upstream.camera5).not.toHaveBeenCalled();
  });
  it("the upstream refused: its message, else the upload text", async () => {
    expect((await shoot({}, ports({ camera5: async () => ({ ok: false, kind: 'refused', code: 500, msg: null }) }))).body).toEqual({ code: 500, msg: 'error.uploadFailed', data: null });
  });
  it('recognised: the card fields; nothing recognised: the tip', async () => {
    expect((await shoot({})).body).toEqual({ code: 200, msg: null, data: { fields: { name: 'Ann', company: 'Co' } } });
    expect((await shoot({}, ports({ camera5: async () => ok({}) }))).body).toEqual({ code: 200, msg: 'home.cameraTip', data: { fields: {} } });
  });
});
