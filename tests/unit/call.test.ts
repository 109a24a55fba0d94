import { afterEach, expect, it, vi } from 'vitest';
import { postJson } from '../../src/islands/call';
import { $toast } from '../../src/stores/toast';
import { toastFor } from '../../src/lib/page/toast';

afterEach(() => {
  vi.unstubAllGlobals();
  $toast.set(null);
});

/** The edge's answer over an abuse limit (README "Abuse limits"): HTTP 429, the spec's code 600 envelope. */
const refusal = { code: 600, msg: '获取验证码过于频繁，请 1 分钟后再试', data: null };

it('a 429 with the {code, msg, data} envelope reaches the island as a reply (no transport toast), so its msg is shown', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify(refusal), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '60' },
        }),
    ),
  );
  const reply = await postJson('/api/send-code', {});
  expect(reply).toEqual(refusal);
  expect($toast.get()).toBeNull();
  // What the lookup islands (src/islands/LookupForm.tsx, SendCodeButton.tsx) then shows for a code other than 200 (spec §8: the server's msg).
  expect(toastFor({ kind: 'body', code: reply?.code ?? 0, msg: reply?.msg ?? null })).toMatchObject({
    key: null,
    text: refusal.msg,
  });
});

it('a 503 without the envelope is a transport failure: the server-error toast', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('overloaded', { status: 503, statusText: 'Service Unavailable' })),
  );
  vi.stubGlobal('navigator', { onLine: true });
  expect(await postJson('/api/send-code', {})).toBeNull();
  expect($toast.get()).toMatchObject({ key: 'error.server', vars: { status: 'Service Unavailable' } });
});
