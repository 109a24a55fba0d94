import { describe, expect, it } from 'vitest';
import { qrImagePath, routePath } from '../../src/lib/core/routes';
import { ALL_VARIANTS } from '../../src/lib/core/variants';
import { OFFLINE_UNTIL_HEADER } from '../../src/lib/page/offline-copy';
import { copyMetaHeader, OFFLINE_COPY_HEADER } from '../../src/lib/page/offline-list';
import { SW_CACHE, SW_FORGET_PATH, SW_IMAGE_PATTERN, SW_PAGE_PATTERN, showOfflineLine } from '../../src/lib/page/sw-script';
import { SW_SCRIPT } from '../../functions/service-worker';

describe('the service worker script (issue 13 offline)', () => {
  const params = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 };

  it('parses as a script', () => {
    expect(() => new Function(SW_SCRIPT)).not.toThrow();
  });

  it('keeps every credential route and its QR image, nothing else', () => {
    for (const variant of [null, ...ALL_VARIANTS]) {
      expect(SW_PAGE_PATTERN.test(routePath({ screen: 'credential', variant, params }))).toBe(true);
      expect(SW_PAGE_PATTERN.test(routePath({ screen: 'search', variant, params: { fId: 1, expoId: 1308, ty: 'visitor' } }))).toBe(false);
    }
    expect(SW_IMAGE_PATTERN.test(qrImagePath(params))).toBe(true);
    for (const path of ['/api/lookup', '/sw.js', '/', '/21308/MTMwOA/visitor', '/applyList/21308/MTMwOA/visitor']) {
      expect(SW_PAGE_PATTERN.test(path) || SW_IMAGE_PATTERN.test(path), path).toBe(false);
    }
  });

  it('shows the hidden offline line of the stored page and leaves the rest alone', () => {
    const html = '<p hidden>other</p><section><p class="offline-note" data-offline hidden role="status" data-astro-cid-x>Shown offline</p></section>';
    expect(showOfflineLine(html)).toBe('<p hidden>other</p><section><p class="offline-note" data-offline role="status" data-astro-cid-x>Shown offline</p></section>');
    expect(showOfflineLine('<p data-offline="" hidden="">x</p>')).toBe('<p data-offline="">x</p>');
    expect(showOfflineLine('<p>no line</p>')).toBe('<p>no line</p>');
  });
});

// ---- The worker itself, run in a small service-worker world (issue 19 item 3) ----

type Listener = (event: unknown) => void;

/** A Cache and CacheStorage over Maps, as much of them as the worker uses. */
class FakeCache {
  readonly entries = new Map<string, Response>();
  private key(req: Request | string, ignoreSearch = false): string {
    const url = new URL(typeof req === 'string' ? req : req.url);
    return ignoreSearch ? `${url.origin}${url.pathname}` : url.href;
  }
  async match(req: Request | string, opts: { ignoreSearch?: boolean } = {}): Promise<Response | undefined> {
    if (!opts.ignoreSearch) return this.entries.get(this.key(req))?.clone();
    const want = this.key(req, true);
    for (const [k, v] of this.entries) if (this.key(k, true) === want) return v.clone();
    return undefined;
  }
  async put(req: Request | string, res: Response): Promise<void> {
    this.entries.set(this.key(req), res);
  }
  async delete(req: Request | string, opts: { ignoreSearch?: boolean } = {}): Promise<boolean> {
    if (!opts.ignoreSearch) return this.entries.delete(this.key(req));
    const want = this.key(req, true);
    let any = false;
    for (const k of [...this.entries.keys()]) if (this.key(k, true) === want) any = this.entries.delete(k) || any;
    return any;
  }
  async keys(): Promise<Request[]> {
    return [...this.entries.keys()].map((u) => new Request(u));
  }
}

const ORIGIN = 'https://expo.example';

function serviceWorld(network: (req: Request) => Promise<Response>) {
  const listeners = new Map<string, Listener>();
  const stores = new Map<string, FakeCache>();
  const caches = {
    open: async (name: string) => stores.get(name) ?? stores.set(name, new FakeCache()).get(name)!,
    keys: async () => [...stores.keys()],
    delete: async (name: string) => stores.delete(name),
  };
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, fn: Listener) => listeners.set(type, fn),
    skipWaiting: () => undefined,
    clients: { claim: async () => undefined },
  };
  new Function('self', 'caches', 'fetch', SW_SCRIPT)(self, caches, network);
  /** Dispatches a fetch event; the worker's answer, or null when it let the request through. */
  async function dispatch(path: string, init: { method?: string; navigate?: boolean } = {}): Promise<Response | null> {
    const request = new Request(`${ORIGIN}${path}`, { method: init.method ?? 'GET' });
    Object.defineProperty(request, 'mode', { value: init.navigate ? 'navigate' : 'no-cors' });
    let answer: Promise<Response> | null = null;
    const waits: Promise<unknown>[] = [];
    listeners.get('fetch')?.({ request, respondWith: (p: Promise<Response>) => (answer = p), waitUntil: (p: Promise<unknown>) => waits.push(p) });
    const res = answer === null ? null : await (answer as Promise<Response>);
    await Promise.all(waits);
    await Promise.all(waits);
    return res;
  }
  return { dispatch, stores, cache: () => stores.get(SW_CACHE) };
}

describe('the service worker: offline copies have a lifetime (issue 19 item 3)', () => {
  const params = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 };
  const PAGE = routePath({ screen: 'credential', variant: null, params });
  const QR = qrImagePath(params);
  const html = (until: number | null) =>
    new Response('<p data-offline hidden>copy</p><h1>credential</h1>', {
      headers: { 'content-type': 'text/html', ...(until === null ? {} : { [OFFLINE_UNTIL_HEADER]: String(until) }) },
    });
  const png = () => new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'content-type': 'image/png' } });
  const offline = () => Promise.reject(new TypeError('Failed to fetch'));

  it('serves a stored copy offline while its lifetime lasts, marked as a copy', async () => {
    let online = true;
    const world = serviceWorld((req) => (online ? Promise.resolve(new URL(req.url).pathname === QR ? png() : html(Date.now() + 60_000)) : offline()));
    expect((await world.dispatch(PAGE, { navigate: true }))?.status).toBe(200);
    await world.dispatch(QR);
    online = false;
    const copy = await world.dispatch(PAGE, { navigate: true });
    expect(await copy?.text()).toBe('<p data-offline>copy</p><h1>credential</h1>');
    expect((await world.dispatch(QR))?.status).toBe(200);
  });

  it('after the expo end plus grace: no copy is served, the page and its QR image are deleted', async () => {
    let online = true;
    let until = Date.now() + 60_000;
    const world = serviceWorld((req) => (online ? Promise.resolve(new URL(req.url).pathname === QR ? png() : html(until)) : offline()));
    await world.dispatch(PAGE, { navigate: true });
    await world.dispatch(QR);
    expect(world.cache()?.entries.size).toBe(2);
    // the stored copy's instant passes (a copy stored with an instant now in the past)
    until = Date.now() - 1;
    await world.cache()?.put(`${ORIGIN}${PAGE}`, html(until));
    online = false;
    await expect(world.dispatch(PAGE, { navigate: true })).rejects.toThrow('Failed to fetch');
    expect([...(world.cache()?.entries.keys() ?? [])]).toEqual([]);
  });

  it('a page whose lifetime is already over (or that names none) is never stored', async () => {
    for (const until of [Date.now() - 1000, null]) {
      const world = serviceWorld(() => Promise.resolve(html(until)));
      expect((await world.dispatch(PAGE, { navigate: true }))?.status).toBe(200);
      expect(world.cache()?.entries.size ?? 0).toBe(0);
    }
  });

  it('"forget this device": the post goes to the network and every cache of ours is emptied', async () => {
    const world = serviceWorld((req) => Promise.resolve(new URL(req.url).pathname === QR ? png() : html(Date.now() + 60_000)));
    await world.dispatch(PAGE, { navigate: true });
    await world.dispatch(QR);
    expect(world.stores.size).toBe(1);
    expect(await world.dispatch(SW_FORGET_PATH, { method: 'POST', navigate: true })).toBeNull();
    expect(world.stores.size).toBe(0);
  });
});

describe('the service worker: the shared link offline, e-tickets kept', () => {
  const params = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 };
  const CREDENTIAL = routePath({ screen: 'credential', variant: null, params });
  const ids = { fId: 21308, expoId: 1308, ty: 'visitor' };
  const HOME = routePath({ screen: 'home', params: ids });
  const LOOKUP = routePath({ screen: 'search', variant: null, params: ids });
  const ORDER = `${routePath({ screen: 'ticket', which: 'ticketSuccess', params: ids })}?orderNo=ORD0001&pay=ok`;
  const OTHER_ORDER = `${routePath({ screen: 'ticket', which: 'ticketSuccess', params: ids })}?orderNo=ORD0002`;
  const OTHER_HOME = routePath({ screen: 'home', params: { fId: 21216, expoId: 1216, ty: 'visitor' } });
  const until = () => String(Date.now() + 60_000);
  const page = (body: string, headers: Record<string, string> = {}) => new Response(body, { headers: { 'content-type': 'text/html', ...headers } });
  const offline = () => Promise.reject(new TypeError('Failed to fetch'));

  function online(path: string): Response {
    if (path === CREDENTIAL) {
      return page('<p data-offline hidden>saved</p>credential', {
        [OFFLINE_UNTIL_HEADER]: until(),
        [OFFLINE_COPY_HEADER]: copyMetaHeader({ expo: 1308, kind: 'credential', codes: [params.euCode], offset: 480, lang: 'en' }),
        'content-language': 'en',
      });
    }
    if (path === ORDER) {
      return page('<p data-offline hidden>saved</p>tickets', {
        [OFFLINE_UNTIL_HEADER]: until(),
        [OFFLINE_COPY_HEADER]: copyMetaHeader({ expo: 1308, kind: 'ticket', codes: ['TKA', 'TKB'], offset: 480, lang: 'en' }),
        'content-language': 'en',
      });
    }
    // an unpaid order, the home in Thai: nothing to keep
    return page('other', { 'content-language': path === HOME ? 'th' : 'en' });
  }

  it('after a credential and a paid e-ticket were shown, the shared link offline lists both, in the last language of the expo', async () => {
    let up = true;
    const world = serviceWorld((req) => {
      const url = new URL(req.url);
      return up ? Promise.resolve(online(url.pathname + url.search)) : offline();
    });
    await world.dispatch(CREDENTIAL, { navigate: true });
    await world.dispatch(ORDER, { navigate: true });
    await world.dispatch(OTHER_ORDER, { navigate: true });
    expect(await (await world.dispatch(HOME, { navigate: true }))?.text()).toBe('other');
    up = false;
    for (const path of [HOME, LOOKUP, OTHER_ORDER]) {
      const res = await world.dispatch(path, { navigate: true });
      const html = (await res?.text()) ?? '';
      expect(html, path).toContain('<html lang="th">');
      expect(html).toContain(`href="${CREDENTIAL}"`);
      expect(html).toContain(`href="${ORDER.replace('&', '&#38;')}"`);
      expect(html).toContain('IWHBZIMYEOZETLFI');
      expect(html).toContain('TKA, TKB');
      expect(res?.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    // each opens its own copy, with its "saved" line
    expect(await (await world.dispatch(ORDER, { navigate: true }))?.text()).toBe('<p data-offline>saved</p>tickets');
    expect(await (await world.dispatch(CREDENTIAL, { navigate: true }))?.text()).toBe('<p data-offline>saved</p>credential');
    // another expo's link lists nothing of this one: the browser's own offline page
    await expect(world.dispatch(OTHER_HOME, { navigate: true })).rejects.toThrow('Failed to fetch');
  });

  it('an order page without the header is never kept; "forget this device" drops the e-tickets too', async () => {
    const world = serviceWorld((req) => {
      const url = new URL(req.url);
      return Promise.resolve(online(url.pathname + url.search));
    });
    await world.dispatch(OTHER_ORDER, { navigate: true });
    const kept = () => [...(world.cache()?.entries.keys() ?? [])].filter((k) => !k.includes('/sw-meta/'));
    expect(kept()).toEqual([]);
    await world.dispatch(ORDER, { navigate: true });
    expect(kept()).toEqual([`${ORIGIN}${ORDER}`]);
    await world.dispatch(SW_FORGET_PATH, { method: 'POST', navigate: true });
    expect(world.stores.size).toBe(0);
  });

  it('a refunded order (its page answers without the header) or a credential gone (404): every copy of it leaves the list', async () => {
    const DETAILS = `${routePath({ screen: 'ticket', which: 'orderDetails', params: ids })}?orderNo=ORD0001`;
    let refunded = false;
    let up = true;
    const world = serviceWorld((req) => {
      const url = new URL(req.url);
      const path = url.pathname + url.search;
      if (!up) return offline();
      if (refunded && path === DETAILS) return Promise.resolve(page('refunded', { 'content-language': 'en' }));
      if (refunded && path === CREDENTIAL) return Promise.resolve(new Response('gone', { status: 404, headers: { 'content-type': 'text/html' } }));
      return Promise.resolve(online(path === DETAILS ? ORDER : path));
    });
    for (const path of [CREDENTIAL, ORDER, DETAILS]) await world.dispatch(path, { navigate: true });
    const kept = () => [...(world.cache()?.entries.keys() ?? [])].filter((k) => !k.includes('/sw-meta/')).sort();
    expect(kept()).toEqual([`${ORIGIN}${DETAILS}`, `${ORIGIN}${ORDER}`, `${ORIGIN}${CREDENTIAL}`].sort());
    // the order is refunded: opening one of its pages drops both; the credential is gone: its copy goes
    refunded = true;
    await world.dispatch(DETAILS, { navigate: true });
    expect(kept()).toEqual([`${ORIGIN}${CREDENTIAL}`]);
    await world.dispatch(CREDENTIAL, { navigate: true });
    expect(kept()).toEqual([]);
    up = false;
    await expect(world.dispatch(HOME, { navigate: true })).rejects.toThrow('Failed to fetch');
  });

  it('with no copy of the expo, the shared link offline is the browser’s own offline page', async () => {
    const world = serviceWorld(() => offline());
    await expect(world.dispatch(HOME, { navigate: true })).rejects.toThrow('Failed to fetch');
  });
});
