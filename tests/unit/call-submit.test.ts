/** submit() (src/islands/call.ts): the common outcomes every island handles the same way. */
import { afterEach, expect, it, vi } from 'vitest';
import { submit } from '../../src/islands/call';
import { $toast } from '../../src/stores/toast';

afterEach(() => {
  vi.unstubAllGlobals();
  $toast.set(null);
});

function answer(body: unknown, status = 200) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));
}

it('navigate: leave first, then the browser goes there (replace when asked)', async () => {
  const location = { assign: vi.fn(), replace: vi.fn() };
  vi.stubGlobal('window', { location });
  answer({ code: 200, msg: null, data: { outcome: 'navigate', location: '/next', replace: true, session: {} } });
  const leave = vi.fn();
  expect(await submit('/api/x', {}, { leave })).toBeNull();
  expect(leave).toHaveBeenCalledWith(expect.objectContaining({ location: '/next' }), expect.objectContaining({ code: 200 }));
  expect(location.replace).toHaveBeenCalledWith('/next');
  answer({ code: 200, msg: null, data: { location: '/plain' } });
  await submit('/api/x', {});
  expect(location.assign).toHaveBeenCalledWith('/plain');
});

it('invalid: the field and its message', async () => {
  answer({ code: 400, msg: 'bad', data: { field: 'email', message: 'bad' } });
  const invalid = vi.fn();
  expect(await submit('/api/x', {}, { invalid })).toBeNull();
  expect(invalid).toHaveBeenCalledWith({ field: 'email', message: 'bad' });
  expect($toast.get()).toBeNull();
});

it("a refusal without data: the toast of its message, or the island's own notice", async () => {
  answer({ code: 600, msg: 'too often', data: null }, 429);
  expect(await submit('/api/x', {})).toBeNull();
  expect($toast.get()).toMatchObject({ text: 'too often' });
  const notice = vi.fn();
  await submit('/api/x', {}, { notice });
  expect(notice).toHaveBeenCalledWith({ code: 600, msg: 'too often', data: null });
});

it("any other answer is the island's own: the envelope", async () => {
  const reply = { code: 200, msg: null, data: { outcome: 'select', rows: [] } };
  answer(reply);
  expect(await submit('/api/x', {})).toEqual(reply);
  answer({ code: 200, msg: null, data: null });
  expect(await submit('/api/x', {})).toEqual({ code: 200, msg: null, data: null });
});

it('a transport fault: the toast, null', async () => {
  vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('offline'); }));
  vi.stubGlobal('navigator', { onLine: false });
  expect(await submit('/api/x', {})).toBeNull();
  expect($toast.get()).toMatchObject({ key: 'error.offline' });
});
