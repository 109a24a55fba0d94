/**
 * A fake of the messaging app's JS-SDK on another origin, for tests/e2e/wx.spec.ts: a tiny Node
 * http server whose `/jweixin.js` (the value of WX_JSSDK_URL) defines `window.wx` like the
 * vendor's script and records what the page gives it in `window.__fakeWx`: the `wx.config`
 * argument and the share data of each share call. `ready` runs its callback once `config` was
 * called (a real SDK checks the signature first; the spec checks the signature itself).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeWxSdk {
  /** http://127.0.0.1:port/jweixin.js */
  url: string;
  /** how many times the script was fetched */
  loads(): number;
  close(): Promise<void>;
}

/** What the fake records in the page (read it with `page.evaluate(() => window.__fakeWx)`). */
export interface FakeWxRecord {
  config: { appId: string; timestamp: number; nonceStr: string; signature: string; jsApiList: string[] } | null;
  shares: Record<string, { title: string; desc?: string; link: string; imgUrl: string }>;
}

const SCRIPT = `(function () {
  var rec = { config: null, shares: {} };
  var waiting = [];
  window.__fakeWx = rec;
  function share(name) { return function (d) { rec.shares[name] = { title: d.title, desc: d.desc, link: d.link, imgUrl: d.imgUrl }; if (d.success) d.success(); }; }
  window.wx = {
    config: function (c) { rec.config = c; var w = waiting; waiting = []; w.forEach(function (f) { f(); }); },
    ready: function (f) { if (rec.config) f(); else waiting.push(f); },
    error: function () {},
    updateAppMessageShareData: share('updateAppMessageShareData'),
    updateTimelineShareData: share('updateTimelineShareData'),
    onMenuShareAppMessage: share('onMenuShareAppMessage'),
    onMenuShareTimeline: share('onMenuShareTimeline')
  };
})();`;

/** Starts the fake on `port` (0: a free one). */
export async function startFakeWxSdk(port = 0): Promise<FakeWxSdk> {
  let loads = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/jweixin.js') {
      loads++;
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(SCRIPT);
      return;
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/jweixin.js`,
    loads: () => loads,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
