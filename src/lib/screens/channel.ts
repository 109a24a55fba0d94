/**
 * A channel landing (spec §2.3 `/channel/{id}`, §7 `queryCustomerChannelId`): the channel's
 * images (its comma-separated list, only those a page may show), its name, and the way on to
 * the lookup and the registration of the customer url it names. The expo comes from `?eid=`
 * (spec §4); the page loads no form config (spec §4 "not haisi, subyexhi or channel").
 * src/components/screens/ChannelScreen.astro renders it. Pure over the ports.
 */
import { imageList } from '../content/links';
import { variantByExpoId } from '../core/variants';
import { routePath } from '../core/routes';
import { decodeNumericId } from '../util/ids';
import { imageOrigins } from '../util/image-origins';
import type { ScreenPage, ScreenPorts } from './page';
import { defineScreen } from './define';

export interface ChannelData {
  kind: 'channel';
  id: number;
  expoId: number | null;
  /** `ok`; `noExpo`: the link lacks `?eid=`; `unknown`: no such channel of this expo; `unavailable`: the call failed */
  state: 'ok' | 'noExpo' | 'unknown' | 'unavailable';
  /** the channel's name ('' when it has none: the page's own title then) */
  name: string;
  title: string;
  images: string[];
  lookupHref: string | null;
  formHref: string | null;
  imageOrigins: string[];
}

/** @example (await loadChannel(page, ports, 7001)).lookupHref // '/IEAESearch/21308/MTMwOA' */
export async function loadChannel(page: ScreenPage, ports: ScreenPorts, id: number): Promise<ChannelData> {
  const expoId = decodeNumericId(page.url.searchParams.get('eid'));
  const base = { kind: 'channel' as const, id, expoId, name: '', title: page.t('pages.channelTitle'), images: [], lookupHref: null, formHref: null, imageOrigins: [] };
  if (expoId === null) return { ...base, state: 'noExpo' };
  let reply: Awaited<ReturnType<ScreenPorts['queryCustomerChannelId']>> | null;
  try {
    reply = await ports.queryCustomerChannelId({ expoId, id });
  } catch {
    reply = null;
  }
  if (reply === null) return { ...base, state: 'unavailable' };
  const channel = reply.ok ? reply.data : null;
  if (!channel || channel.urlsId === null) return { ...base, state: 'unknown' };
  const params = { fId: channel.urlsId, expoId, ty: '' };
  const variant = variantByExpoId(expoId);
  const images = imageList(channel.headImgUrl);
  return {
    ...base,
    state: 'ok',
    name: channel.name,
    title: channel.name || base.title,
    images,
    lookupHref: routePath({ screen: 'search', variant, params }),
    formHref: routePath({ screen: 'form', route: variant?.form ?? 'form', params }),
    imageOrigins: imageOrigins(images),
  };
}

/** A channel landing (spec §2.3 `/channel/{id}`): public. */
export const channelScreen = defineScreen({
  name: 'channel',
  components: { channel: 'ChannelScreen' },
  load: (m, page, ports) => loadChannel(page, ports, m.id),
  personal: false,
  missingIsNotFound: false,
  prepare: {},
});
