// A real visitor's phone on the show morning (scripts/rehearse.mjs, docs/rehearsal.md "Actors"),
// and the staff at the gates. A visitor opens the lookup page, types a contact, asks for a code,
// reads it (the organiser's development outbox stands in for the SMS or e-mail), sometimes types
// it wrong first, looks up and opens what the lookup leads to: the credential, the list or the
// registration form. Some walk-ins register, some buyers pay for a ticket; a credential of expo
// 1308 is then scanned at a gate. A refusal or a challenge shown is recorded; the visitor then does
// what a person does: waits the shown seconds once (within their patience) and tries again, else
// gives up, and the record says why.
import { hiddenFields, links, Phone, sleep } from './http.mjs';
import { contactKeyOf, rng, typedFields } from './population.mjs';
import {
  eid,
  euCodeOf,
  getPage,
  lookup,
  LOOKUP_PAGES,
  openLookup,
  outboxCode,
  pageFields,
  pageKind,
  sendCode,
  wrongCode,
} from './steps.mjs';

/** How long a person waits when told to (seconds); past it they give up. */
export const PATIENCE = { refusalS: 60, challengeS: 120, upstreamS: 70 };

const TICKET_LIST = `/ticket/21216/${eid(1216)}/visitor`;
const TICKET_FORM = (ticketId) => `/ticketForm/21216/${eid(1216)}/visitor?ticketId=${ticketId}`;
const INDUSTRIES = ['Energy', 'Manufacturing', 'Trade', 'Food', 'Services'];

/** A fresh record of what happened to one visitor. */
export function newRecord(v) {
  return {
    id: v.id,
    kind: v.kind,
    net: v.net,
    ip: v.ip,
    mode: v.mode,
    contact: v.contact.type,
    arrivalS: v.arrivalS,
    goal: null,
    reached: null,
    credentialMs: null,
    /** of credentialMs, the time spent waiting for replies (the rest is the visitor's own: typing, reading, waiting when told to) */
    credentialWaitMs: null,
    goalMs: null,
    refusals: [],
    challenges: [],
    upstreamRefusals: [],
    errors: [],
    wrongCodesTyped: 0,
    registered: false,
    paid: false,
    dayPass: v.wantsDayPass ? 'wanted' : null,
    views: [],
    scans: [],
    gaveUp: null,
    requests: 0,
    targetedBy: null,
  };
}

/** What the visitor came for: a credential, a list or the form (issue 29 "reaching their goal"). */
function goalOf(v) {
  if (v.kind === 'buyer') return 'ticket';
  if (v.kind === 'walk-in') return v.registers ? 'credential' : 'form';
  if (v.kind === 'demo') return v.contact.expect;
  return 'credential';
}

/**
 * Runs one step with a person's patience: a challenge is waited out once (the wait ticket's
 * seconds, within PATIENCE.challengeS), a refusal with a wait within PATIENCE.refusalS is waited
 * once, the organiser's refusal with a wait within PATIENCE.upstreamS once, a reply that never
 * came is tried again once after a moment. Everything shown is recorded. The last outcome.
 */
async function patiently(rec, step, ctx, attempt) {
  const tries = { challenge: 0, refused: 0, upstream: 0, error: 0 };
  for (;;) {
    const o = await attempt();
    const at = (Date.now() - ctx.t0) / 1000;
    const note = {
      step,
      status: o.status,
      waitS: o.waitS ?? null,
      detail: o.key ?? o.detail ?? '',
      atS: Math.round(at * 10) / 10,
    };
    if (o.kind === 'challenge') {
      rec.challenges.push(note);
      if (tries.challenge++ > 0 || o.waitS === null || o.waitS === undefined || o.waitS > PATIENCE.challengeS) return o;
      await sleep((o.waitS + 1) * 1000);
      continue;
    }
    if (o.kind === 'refused') {
      rec.refusals.push(note);
      if (tries.refused++ > 0 || o.waitS === null || o.waitS === undefined || o.waitS > PATIENCE.refusalS) return o;
      await sleep((o.waitS + 1) * 1000);
      continue;
    }
    if (o.kind === 'upstream') {
      rec.upstreamRefusals.push(note);
      if (tries.upstream++ > 0 || o.waitS === null || o.waitS === undefined || o.waitS > PATIENCE.upstreamS) return o;
      await sleep((o.waitS + 1) * 1000);
      continue;
    }
    if (o.kind === 'error') {
      rec.errors.push(note);
      if (tries.error++ > 0) return o;
      await sleep(2000);
      continue;
    }
    return o;
  }
}

/** Gives up with a reason (the first one stays). */
function giveUp(rec, why) {
  rec.gaveUp ??= why;
  return rec;
}

/** Opens a page the visitor was sent to; the reply (an error recorded when it is not a 200). */
async function open(rec, phone, path, step) {
  const r = await getPage(phone, path);
  const note = { step, status: r.status, detail: r.error ?? `GET ${path.split('?')[0]}: HTTP ${r.status}`, atS: 0 };
  // a page's own refusal (the credential page over its miss limit answers 429 with the wait)
  if (r.status === 429) rec.refusals.push({ ...note, waitS: Number(r.headers?.get('retry-after')) || null });
  else if (r.status !== 200) rec.errors.push(note);
  return r;
}

/**
 * Proves the visitor's contact on a lookup page: send, read the code, (a wrong one first,
 * sometimes), look up. Asks for a new code once when the code cannot work. The lookup's `ok`
 * outcome, or null (given up, the record says why).
 */
async function prove(rec, v, phone, ctx, lookupPath, fallback) {
  const r = rng(v.id * 7919 + ctx.seed);
  const { reply, fields } = await openLookup(phone, lookupPath, fallback);
  if (reply.status !== 200)
    rec.errors.push({
      step: 'lookup page',
      status: reply.status,
      detail: reply.error ?? `HTTP ${reply.status}`,
      atS: 0,
    });
  const typed = typedFields(v.contact);
  const expoId = Number(fields.expoId);
  for (let round = 0; round < 2; round++) {
    await sleep(v.think.contactS * 1000);
    const sentAt = Date.now();
    const sent = await patiently(rec, 'send', ctx, () => sendCode(phone, v.mode, fields, typed));
    if (sent.kind !== 'ok') return giveUp(rec, `send: ${sent.kind}${sent.detail ? ` (${sent.detail})` : ''}`) && null;
    const code = await outboxCode(ctx.upstream, contactKeyOf(v.contact), expoId, sentAt);
    if (!code) return giveUp(rec, 'no code arrived in 15 s') && null;
    await sleep(v.think.codeS * 1000);
    if (v.wrongFirst && round === 0) {
      rec.wrongCodesTyped++;
      const wrong = await patiently(rec, 'lookup (wrong code)', ctx, () =>
        lookup(phone, v.mode, fields, typed, wrongCode(code, r)),
      );
      if (wrong.kind === 'refused' || wrong.kind === 'error') return giveUp(rec, `lookup: ${wrong.kind}`) && null;
      await sleep(v.think.retryS * 1000);
    }
    let found = await patiently(rec, 'lookup', ctx, () => lookup(phone, v.mode, fields, typed, code));
    if (found.kind === 'failed' && found.why === 'wrong') {
      // typed it wrong without knowing: reads the message again and types it once more
      await sleep(v.think.retryS * 1000);
      found = await patiently(rec, 'lookup (again)', ctx, () => lookup(phone, v.mode, fields, typed, code));
    }
    if (found.kind === 'ok') return found;
    if (found.kind === 'failed' && found.why !== 'wrong' && round === 0) {
      // the page says to ask for a new code: the visitor does, once
      rec.upstreamRefusals.push({
        step: 'lookup',
        status: found.status,
        waitS: null,
        detail: `code not accepted (${found.why}${found.key ? `: ${found.key}` : ''})`,
        atS: (Date.now() - ctx.t0) / 1000,
      });
      continue;
    }
    return (
      giveUp(
        rec,
        `lookup: ${found.kind}${found.why ? ` ${found.why}` : ''}${found.detail ? ` (${found.detail})` : ''}`,
      ) && null
    );
  }
  return giveUp(rec, 'lookup: code not accepted twice') && null;
}

/** The credential page answered 200: the time from the first request; then its QR image loads. */
async function showCredential(rec, phone, path, html, t0) {
  rec.credentialMs ??= Date.now() - t0;
  rec.credentialWaitMs ??= Math.round(phone.waitMs);
  rec.credentialPath = path;
  const qr = links(html, /^\/qr\/.*\.png/)[0];
  if (qr) await phone.get(qr, { accept: 'image/png,image/*' });
}

/** Registers a walk-in on the form page it reached; the credential path, or null. */
async function register(rec, v, phone, ctx, formHtml) {
  const hidden = hiddenFields(formHtml, { formMatch: /\/api\/register/ });
  if (!hidden.path) return giveUp(rec, 'the form page has no registration form') && null;
  await sleep(v.think.formS * 1000);
  const values = {
    ...hidden,
    uname: v.name,
    ucompany: v.company,
    ucompanyTitle: '经理',
    'ucardid.type': '2',
    ucardid: v.idNumber,
    industry: INDUSTRIES[v.id % INDUSTRIES.length],
    'purpose.0': 'Sourcing',
    privacy: 'on',
  };
  const o = await patiently(rec, 'register', ctx, async () => {
    const r =
      v.mode === 'json'
        ? await phone.post('/api/register', { json: values })
        : await phone.post('/api/register', { form: values });
    if (r.status === 0 || (r.status >= 500 && r.status !== 503))
      return { kind: 'error', status: r.status, detail: r.error ?? `HTTP ${r.status}`, ms: r.ms };
    if (v.mode === 'json') {
      const b = r.body;
      if (!b) return { kind: 'error', status: r.status, detail: `HTTP ${r.status} not JSON`, ms: r.ms };
      if (b.code === 600 && (r.status === 429 || r.status === 503))
        return {
          kind: 'refused',
          status: r.status,
          waitS: Number(r.headers?.get('retry-after')) || null,
          detail: b.msg ?? '',
          ms: r.ms,
        };
      if (b.data?.outcome === 'navigate') return { kind: 'ok', status: r.status, location: b.data.location, ms: r.ms };
      return {
        kind: 'upstream',
        status: r.status,
        waitS: null,
        detail: `${b.code} ${b.data?.outcome ?? ''} ${b.data?.message ?? b.msg ?? ''}`.trim(),
        ms: r.ms,
      };
    }
    if (r.status === 303 && r.location && pageKind(r.location) === 'credential')
      return { kind: 'ok', status: r.status, location: r.location, ms: r.ms };
    const flash = phone.flash();
    const key = flash?.notice?.key ?? '';
    if (r.status === 303 && r.location) await phone.get(r.location);
    if (key.startsWith('limit.'))
      return { kind: 'refused', status: r.status, waitS: Number(r.headers?.get('retry-after')) || null, key, ms: r.ms };
    return {
      kind: 'upstream',
      status: r.status,
      waitS: null,
      detail: key || flash?.notice?.text || flash?.error?.key || `HTTP ${r.status}`,
      ms: r.ms,
    };
  });
  if (o.kind !== 'ok') return giveUp(rec, `register: ${o.kind} (${o.detail ?? o.key ?? ''})`) && null;
  rec.registered = true;
  return o.location;
}

/**
 * Orders a ticket on 1216's buyer form and pays it at the cashier (the payment simulator on the
 * organiser's origin); the ticketSuccess path, or null. `ticketId` 1 is the Day Pass (8 left, the
 * hoarder's target): a visitor who finds it gone says so and takes the Full Pass (2).
 */
async function buy(rec, v, phone, ctx, ticketId) {
  const form = await open(rec, phone, TICKET_FORM(ticketId), 'ticket form');
  if (form.status !== 200) return { refused: false, path: null };
  const hidden = hiddenFields(form.text, { formMatch: /ticket-form/ });
  // a ticket with none left shows no order form
  if (!hidden.path) return { refused: true, path: null, detail: 'no order form on the page (none left)' };
  await sleep(v.think.formS * 600);
  const values = {
    ...hidden,
    uname: v.name,
    ucompany: v.company,
    'ucardid.type': '2',
    ucardid: v.idNumber,
    industry: 'Trade',
    'purpose.0': 'Sourcing',
    privacy: 'on',
    quantity: '1',
    payType: '2',
  };
  let payUrl = null;
  let soldOut = false;
  const o = await patiently(rec, 'order', ctx, async () => {
    const r =
      v.mode === 'json'
        ? await phone.post('/api/order', { json: values })
        : await phone.post('/api/order', { form: values });
    if (r.status === 0 || (r.status >= 500 && r.status !== 503))
      return { kind: 'error', status: r.status, detail: r.error ?? `HTTP ${r.status}`, ms: r.ms };
    if (v.mode === 'json') {
      const b = r.body;
      if (!b) return { kind: 'error', status: r.status, detail: `HTTP ${r.status} not JSON`, ms: r.ms };
      if (b.code === 600 && (r.status === 429 || r.status === 503))
        return {
          kind: 'refused',
          status: r.status,
          waitS: Number(r.headers?.get('retry-after')) || null,
          detail: b.msg ?? '',
          ms: r.ms,
        };
      if (b.data?.outcome === 'navigate' && b.data.location) {
        payUrl = b.data.location;
        return { kind: 'ok', status: r.status, ms: r.ms };
      }
      soldOut = true;
      return { kind: 'ok', status: r.status, detail: `${b.code} ${b.data?.message ?? b.msg ?? ''}`, ms: r.ms };
    }
    // a form post: the product's own "continue to payment" page (the cashier is on another origin), or back with a flash
    if (r.status === 200) {
      payUrl = links(r.text, /\/dev\/pay\//)[0] ?? null;
      return payUrl
        ? { kind: 'ok', status: r.status, ms: r.ms }
        : { kind: 'error', status: r.status, detail: 'no cashier link', ms: r.ms };
    }
    if (r.status === 303 && r.location && /\/dev\/pay\//.test(r.location)) {
      payUrl = new URL(r.location, ctx.product).href;
      return { kind: 'ok', status: r.status, ms: r.ms };
    }
    const flash = phone.flash();
    const key = flash?.notice?.key ?? '';
    if (r.status === 303 && r.location) await phone.get(r.location);
    if (key.startsWith('limit.'))
      return { kind: 'refused', status: r.status, waitS: Number(r.headers?.get('retry-after')) || null, key, ms: r.ms };
    soldOut = true;
    return { kind: 'ok', status: r.status, detail: flash?.notice?.text ?? key, ms: r.ms };
  });
  if (o.kind !== 'ok')
    return giveUp(rec, `order: ${o.kind} (${o.detail ?? o.key ?? ''})`) && { refused: false, path: null };
  if (!payUrl) return { refused: soldOut, path: null, detail: o.detail };
  // the cashier: its page, then pay (the simulator returns to the order's returnUrl by its path)
  const cashier = await phone.get(payUrl);
  if (cashier.status !== 200)
    return giveUp(rec, `cashier: HTTP ${cashier.status} ${cashier.error ?? ''}`) && { refused: false, path: null };
  await sleep(2000);
  const paid = await phone.post(payUrl, { form: { action: 'pay' } });
  if (paid.status !== 303 || !paid.location)
    return giveUp(rec, `pay: HTTP ${paid.status} ${paid.error ?? ''}`) && { refused: false, path: null };
  const back = new URL(paid.location, ctx.product);
  return { refused: false, path: `${back.pathname}${back.search}` };
}

/**
 * One visitor's morning. Resolves the record; never throws (an unexpected fault is recorded as an
 * error and the visitor gives up).
 */
export async function runVisitor(v, ctx) {
  const rec = newRecord(v);
  rec.goal = goalOf(v);
  const phone = new Phone({
    ip: v.ip,
    product: ctx.product,
    timings: ctx.timings,
    lang: v.contact.areaCode && v.contact.areaCode !== '+86' ? 'en;q=0.9' : undefined,
  });
  const t0 = Date.now();
  rec.startS = (t0 - ctx.t0) / 1000;
  try {
    if (v.kind === 'buyer') await buyerMorning(rec, v, phone, ctx, t0);
    else await visitorMorning(rec, v, phone, ctx, t0);
  } catch (e) {
    rec.errors.push({
      step: 'script',
      status: 0,
      detail: String(e?.stack ?? e).slice(0, 300),
      atS: (Date.now() - ctx.t0) / 1000,
    });
    giveUp(rec, 'the script failed (see errors)');
  }
  rec.requests = phone.requests;
  return rec;
}

async function visitorMorning(rec, v, phone, ctx, t0) {
  const found = await prove(rec, v, phone, ctx, LOOKUP_PAGES[1308], pageFields(1308, 21308, 'IEAE'));
  if (!found) return;
  let credential = null;
  if (found.rows) {
    // JSON: the list of spec §2.1 is shown on the lookup page; the visitor opens the first
    rec.reached = 'list';
    rec.goalMs = Date.now() - t0;
    const href = found.rows[0]?.href;
    if (href) {
      await sleep(1500);
      const page = await open(rec, phone, href, 'credential');
      if (page.status === 200) credential = { path: href, html: page.text };
    }
  } else {
    const page = await open(rec, phone, found.location, 'next page');
    const kind = pageKind(found.location);
    if (page.status !== 200) return giveUp(rec, `${kind} page: HTTP ${page.status}`);
    if (kind === 'credential') credential = { path: found.location, html: page.text };
    else if (kind === 'list') {
      rec.reached = 'list';
      rec.goalMs = Date.now() - t0;
      const href = links(page.text, /Success\//)[0];
      if (href) {
        await sleep(1500);
        const cred = await open(rec, phone, href, 'credential');
        if (cred.status === 200) credential = { path: href, html: cred.text };
      }
    } else if (kind === 'form') {
      rec.reached = 'form';
      rec.goalMs = Date.now() - t0;
      if (v.registers) {
        const to = await register(rec, v, phone, ctx, page.text);
        if (to) {
          const cred = await open(rec, phone, to, 'credential');
          if (cred.status === 200) credential = { path: to, html: cred.text };
        }
      }
    } else return giveUp(rec, `the lookup led to ${found.location.split('?')[0]}`);
  }
  if (!credential) return;
  await showCredential(rec, phone, credential.path, credential.html, t0);
  if (rec.reached !== 'list') {
    rec.reached = 'credential';
    rec.goalMs = rec.credentialMs;
  }
  // at the gate: some open it again (a refresh while queueing), then the QR is scanned
  for (let i = 0; i < v.refreshes; i++) {
    await sleep(2000 + ((v.id * 997 + i * 331) % 6000));
    const again = await phone.get(credential.path);
    rec.views.push({ status: again.status, ms: Math.round(again.ms) });
    if (again.status === 429)
      rec.refusals.push({
        step: 'credential view',
        status: 429,
        waitS: Number(again.headers?.get('retry-after')) || null,
        detail: 'credential page 429',
        atS: (Date.now() - ctx.t0) / 1000,
      });
    else if (again.status !== 200)
      rec.errors.push({
        step: 'credential view',
        status: again.status,
        detail: again.error ?? `HTTP ${again.status}`,
        atS: (Date.now() - ctx.t0) / 1000,
      });
  }
  const code = euCodeOf(credential.path);
  if (code) await ctx.scanAtGate(v, rec, code);
}

async function buyerMorning(rec, v, phone, ctx, t0) {
  // the ticket list sends an unverified visitor to the lookup with ?next= (spec §4 guard)
  const found = await prove(
    rec,
    v,
    phone,
    ctx,
    TICKET_LIST,
    pageFields(1216, 21216, '', { back: `/search/21216/${eid(1216)}/visitor`, next: TICKET_LIST }),
  );
  if (!found) return;
  if (!found.location || pageKind(found.location) !== 'ticketList')
    return giveUp(rec, `the lookup led to ${found.location ?? 'a list'}, not the tickets`);
  const list = await open(rec, phone, found.location, 'ticket list');
  if (list.status !== 200) return giveUp(rec, `ticket list: HTTP ${list.status}`);
  rec.reached = 'ticket list';
  await sleep(v.think.contactS * 1000);
  let bought = null;
  if (v.wantsDayPass) {
    bought = await buy(rec, v, phone, ctx, 1);
    if (rec.gaveUp) return;
    if (bought.path) rec.dayPass = 'bought';
    else {
      rec.dayPass = 'none left';
      rec.dayPassAnswer = bought.detail ?? null;
      bought = null;
    }
  }
  bought ??= await buy(rec, v, phone, ctx, 2);
  if (!bought?.path) return giveUp(rec, rec.gaveUp ?? `order refused (${bought?.detail ?? ''})`);
  const success = await open(rec, phone, bought.path, 'ticketSuccess');
  if (success.status !== 200) return giveUp(rec, `ticketSuccess: HTTP ${success.status}`);
  if (!links(success.text, /^\/qr\//).length) return giveUp(rec, 'the order page shows no ticket (not paid?)');
  rec.paid = true;
  await showCredential(rec, phone, bought.path, success.text, t0);
  rec.reached = 'ticket';
  rec.goalMs = rec.credentialMs;
}

/**
 * The gates of expo 1308: one staff phone each (on the venue's Wi-Fi, with its staff key's cookie),
 * scanning the queue in front of it one code after the other, as a gate does.
 */
export class Gates {
  /** @param {{ name: string, link: string }[]} keys @param {{ product: string, t0: number }} ctx */
  constructor(keys, ctx, staffIp) {
    this.ctx = ctx;
    this.gates = keys.map((k) => ({
      name: k.name,
      link: k.link,
      phone: new Phone({ ip: staffIp, product: ctx.product, timings: ctx.timings }),
      queue: [],
      scans: [],
      opened: null,
    }));
    this.closed = false;
    this.wake = null;
  }

  /** Opens every staff link (the key becomes the gate's cookie). */
  async open() {
    await Promise.all(
      this.gates.map(async (g) => {
        const r = await g.phone.get(g.link);
        g.opened = r.status;
      }),
    );
  }

  /** A visitor joins a gate's queue; resolves when scanned. */
  scan(v, rec, code) {
    const gate = this.gates[(v.id * 31) % this.gates.length];
    return new Promise((resolve) => {
      gate.queue.push({ v, rec, code, queuedAt: Date.now(), resolve });
      this.wake?.();
    });
  }

  /** Each gate scans its queue until closed and empty. */
  async run() {
    await Promise.all(
      this.gates.map(async (g) => {
        for (;;) {
          const next = g.queue.shift();
          if (!next) {
            if (this.closed) return;
            await new Promise((r) => {
              this.wake = r;
              setTimeout(r, 250);
            });
            continue;
          }
          const waitMs = Date.now() - next.queuedAt;
          const r = await g.phone.post('/api/gate/scan', { json: { eid: eid(1308), code: next.code } });
          const result = r.body?.data?.result ?? (r.error ? 'error' : `HTTP ${r.status}`);
          const scan = {
            gate: g.name,
            result,
            ms: Math.round(r.ms),
            queueMs: waitMs,
            atS: (Date.now() - this.ctx.t0) / 1000,
          };
          g.scans.push(scan);
          next.rec.scans.push(scan);
          next.resolve();
          await sleep(400); // the next person steps up
        }
      }),
    );
  }

  close() {
    this.closed = true;
    this.wake?.();
  }
}
