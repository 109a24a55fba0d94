/** Fakes for the screens' loaders (src/lib/screens): a page as the pipeline gives it, and upstream ports. */
import { vi } from 'vitest';
import type { VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import type { Flash } from '../../src/lib/page/flash';
import { applyConfig } from '../../src/lib/page/load';
import type { ScreenConfig, ScreenPage, ScreenPorts } from '../../src/lib/screens/page';
import { encodeId } from '../../src/lib/util/ids';
import { okReply, refusedReply } from './upstream-fakes';

export const ORIGIN = 'https://expo.example';
export const NOW = Date.UTC(2025, 5, 1, 4, 0, 0);
export const pathOf = (expoId: number, fId = 20000 + expoId, ty = 'visitor') => `/${fId}/${encodeId(expoId)}/${ty}`;
export const paramsOf = (expoId: number, fId = 20000 + expoId, ty = 'visitor') => ({ expoId, fId, eid: encodeId(expoId), ty });

/** The catalogue key and its vars, so tests read what a screen would translate. */
export const t = (key: string, vars?: Record<string, string | number>) => (vars && Object.keys(vars).length > 0 ? `${key}${JSON.stringify(vars)}` : key);

export function flash(path: string, more: Partial<Flash> = {}): Flash {
  return { path, values: {}, error: null, notice: null, ...more };
}

export function contact(expoId: number, more: Partial<VerifiedContact> = {}): VerifiedContact {
  return { expoId, contact: 'a@b.example', checkType: 2, ...more };
}

export function page(path: string, more: Partial<Omit<ScreenPage, 'cookie'>> & { cookies?: Record<string, string> } = {}): ScreenPage {
  const { cookies = {}, ...rest } = more;
  const config = rest.config ?? null;
  return {
    url: new URL(path, ORIGIN),
    now: NOW,
    lang: 'en',
    t,
    bypass: true,
    cookie: (name) => cookies[name],
    config,
    configFailed: false,
    view: applyConfig({ key: null, config: null, cookieLang: 'en', now: NOW, onFormPage: false }),
    flash: null,
    contact: null,
    pledge: false,
    challenge: null,
    userAgent: '',
    ...rest,
  };
}

const refused = async () => refusedReply(500);

/** Every call refused, but those given. */
export function ports(more: Partial<ScreenPorts> = {}): ScreenPorts {
  return {
    getCustomerId: vi.fn(refused),
    queryFromUserExpoId: vi.fn(refused),
    queryCustomerCode: vi.fn(refused),
    selectUrlsTicketList: vi.fn(refused),
    checkSurplusTicket: vi.fn(refused),
    findUserBuyOrderNumByPhoneExpoId: vi.fn(refused),
    findOrderListByPhone: vi.fn(refused),
    ifOpenRefund: vi.fn(refused),
    pageActivityType: vi.fn(refused),
    getImage: vi.fn(refused),
    selectSiteTypeList: vi.fn(refused),
    selectSiteDateList: vi.fn(refused),
    selectExpoUserSiteId: vi.fn(refused),
    selectBusList: vi.fn(refused),
    selectBusUser: vi.fn(refused),
    listHealth: vi.fn(refused),
    getArticleList: vi.fn(refused),
    queryCustomerChannelId: vi.fn(refused),
    getForm: vi.fn(async () => null),
    ...more,
  };
}

export const ok = (data: unknown) => vi.fn(async () => okReply(data));

export type { ScreenConfig };
