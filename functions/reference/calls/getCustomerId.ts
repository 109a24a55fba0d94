/**
 * `GET /customFrom/getCustomerId` (docs/upstream.md): the form config of one customer url,
 * encrypted: `{ customerForm, customerUrls, customerWx, expoInfo, activity }` (spec §3).
 */
import type { Context } from 'hono';
import { encryptJson } from '../../../src/lib/contract/aes';
import type { Activity, CustomerUrls, CustomerWx, ExpoInfo } from '../../../src/lib/contract';
import { RefCode, ok, reply } from '../envelope';
import type { ExpoRow, RefEnv } from '../expo';
import { CustomerIdQuery, parseInput } from '../inputs';

interface UrlRow {
  id: number;
  long_url: string | null;
  head_img_url: string | null;
}

/** Expo info as the wire names it. */
export function toExpoInfo(expo: ExpoRow): ExpoInfo {
  return {
    id: expo.id,
    exhiName: expo.exhi_name,
    exhiNameEn: expo.exhi_name_en,
    address: expo.address,
    endTime: expo.end_time,
    showLogo: expo.show_logo,
    bottomHref: expo.bottom_href,
    bottomInstructions: expo.bottom_instructions,
    startTime: expo.start_time,
    hall: expo.hall,
    contactPhone: expo.contact_phone,
    contactEmail: expo.contact_email,
  };
}

/** Parses a JSON column; the fallback when the stored text is not JSON. */
function parseJson(text: string | null | undefined, fallback: unknown): unknown {
  if (text == null) return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** Answers the form config of customer url `fId` of expo `eId`. */
export async function getCustomerId(c: Context<RefEnv>): Promise<Response> {
  const expo = c.var.expo;
  const input = parseInput(CustomerIdQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const { fId, eId } = input.value;
  if (eId !== expo.id) return reply(c, RefCode.BAD_INPUT, 'bad input: eId does not match the expoId header');

  const db = c.env.DB;
  const url = await db
    .prepare('SELECT id, long_url, head_img_url FROM customer_urls WHERE id = ? AND expo_id = ?')
    .bind(fId, eId)
    .first<UrlRow>();
  if (!url) return reply(c, RefCode.NOT_FOUND, `customer url ${fId} does not exist for expo ${eId}`);

  const [wx, activity, form] = await Promise.all([
    db
      .prepare('SELECT id, config FROM customer_wx WHERE expo_id = ? AND urls_id = ?')
      .bind(eId, fId)
      .first<{ id: number; config: string }>(),
    db
      .prepare('SELECT id, activity_name FROM activities WHERE expo_id = ? AND urls_id = ?')
      .bind(eId, fId)
      .first<{ id: number; activity_name: string }>(),
    // The url's own form, else the expo's default.
    db
      .prepare(
        'SELECT fields FROM customer_forms WHERE expo_id = ? AND (urls_id = ? OR urls_id IS NULL) ORDER BY urls_id IS NULL LIMIT 1',
      )
      .bind(eId, fId)
      .first<{ fields: string }>(),
  ]);

  const customerUrls: CustomerUrls = { id: url.id, longUrl: url.long_url, headImgUrl: url.head_img_url };
  const config = parseJson(wx?.config, {});
  const customerWx: Partial<CustomerWx> | null = wx
    ? { ...(typeof config === 'object' && config !== null ? config : {}), id: wx.id, urlsId: fId }
    : null;
  const activityOut: Activity | null = activity ? { id: activity.id, activityName: activity.activity_name } : null;
  const data = {
    customerForm: parseJson(form?.fields, []),
    customerUrls,
    customerWx,
    expoInfo: toExpoInfo(expo),
    activity: activityOut,
  };
  return ok(c, await encryptJson(data, expo.aes_key));
}
