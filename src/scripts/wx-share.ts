// The share card inside the messaging app (src/lib/page/wx-share.ts; spec §1, §4, §7 ajaxData):
// the page's own share tags, signed through /api/share-signature, given to the JS-SDK (loaded
// just before this script from the operator's WX_JSSDK_URL). Without the SDK, a signature or
// the tags, nothing happens: the page is whole without it.
import { appMessageShare, signedPageUrl, timelineShare, wxConfig, type ShareSignatureReply, type ShareTags } from '../lib/page/wx-share';

interface WxSdk {
  config(c: object): void;
  ready(f: () => void): void;
  error?(f: (e: unknown) => void): void;
  updateAppMessageShareData?(d: object): void;
  updateTimelineShareData?(d: object): void;
  onMenuShareAppMessage?(d: object): void;
  onMenuShareTimeline?(d: object): void;
}

const meta = (property: string) => document.querySelector<HTMLMetaElement>(`meta[property="${property}"]`)?.content ?? '';

async function start(): Promise<void> {
  const wx = (window as unknown as { wx?: WxSdk }).wx;
  const card = document.getElementById('wx-share');
  if (!wx || !card) return;
  const tags: ShareTags = { title: meta('og:title'), description: meta('og:description'), url: meta('og:url'), image: meta('og:image') };
  if (!tags.title || !tags.url) return;
  const res = await fetch(`/api/share-signature?url=${encodeURIComponent(signedPageUrl(location.href))}`, {
    headers: { accept: 'application/json' },
  }).catch(() => null);
  if (!res?.ok) return;
  const body = (await res.json().catch(() => null)) as { data?: ShareSignatureReply | null } | null;
  const sig = body?.data;
  if (!sig) return;
  wx.config(wxConfig(sig));
  wx.ready(() => {
    const chat = appMessageShare(tags);
    const feed = timelineShare(tags);
    // New names first; older app versions know only the old ones.
    if (wx.updateAppMessageShareData) wx.updateAppMessageShareData(chat);
    else wx.onMenuShareAppMessage?.(chat);
    if (wx.updateTimelineShareData) wx.updateTimelineShareData(feed);
    else wx.onMenuShareTimeline?.(feed);
  });
}

void start();
