// Who comes to the rehearsal's show morning (scripts/rehearse.mjs, docs/rehearsal.md "Actors"):
// the simulated visitors with their contacts, addresses and plans, drawn from one seeded random
// stream so that `--seed S` gives the same crowd every run (the timing of the replies does not
// repeat: it is the machine's). Every contact is fake; addresses are from the documentation and
// benchmarking ranges (RFC 5737, RFC 3849, RFC 2544).

/** A seeded random stream (mulberry32): `next()` in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** an integer in [lo, hi] */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    /** one element */
    pick: (list) => list[Math.floor(next() * list.length)],
    /** true with probability p */
    chance: (p) => next() < p,
    /** a number in [lo, hi) */
    between: (lo, hi) => lo + next() * (hi - lo),
    /** `n` digits */
    digits: (n) => Array.from({ length: n }, () => Math.floor(next() * 10)).join(''),
    /** one key of `weights` ({ key: weight }), by weight */
    weighted: (weights) => {
      const entries = Object.entries(weights);
      let x = next() * entries.reduce((s, [, w]) => s + w, 0);
      for (const [k, w] of entries) if ((x -= w) < 0) return k;
      return entries.at(-1)[0];
    },
    /** the list shuffled (a copy) */
    shuffle: (list) => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}

/** The client addresses (README "Abuse limits": IPv4 by address, IPv6 by /64, /56 and /48). */
export const ADDRESSES = {
  /** the venue's Wi-Fi: one public IPv4 address for every phone on it */
  venue: '203.0.113.10',
  /** two mobile carriers' NATs: one public IPv4 address each for their subscribers here */
  carrierA: '198.51.100.23',
  carrierB: '198.51.100.87',
  /** a carrier that gives each phone a /64 of one /48 */
  ipv6Prefix48: '2001:db8:8a00',
  /** the lockout victim's own phone at home (a broadband address) */
  victimHome: '198.51.100.150',
  /** one attacker's address each */
  lockout: '192.0.2.66',
  guesser: '192.0.2.77',
  hoarder: '192.0.2.88',
  /** the pumping botnet's IPv6 /48 (a /64 per send) */
  botPrefix48: '2001:db8:bad0',
};

/** The share of visitors on each network (the venue at least a third: issue 29). */
export const NETWORK_SHARES = { venue: 0.36, carrierA: 0.2, carrierB: 0.18, ipv6: 0.26 };

/** An IPv6 address in its own /64 of the /48 `prefix48`. */
export function ipv6In(r, prefix48) {
  const h = () => r.int(0, 0xffff).toString(16);
  return `${prefix48}:${h()}::${h()}:${h()}`;
}

/** A botnet's IPv4 address (198.18.0.0/15, the benchmarking range): `i` gives a distinct one. */
export function botIpv4(i, offset = 0) {
  const n = i + offset;
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255 || 1}`;
}

// China's mobile number blocks (three-digit prefixes), weighted roughly by subscribers; the next
// four digits are the home region's block, so a venue's crowd shares a few of them.
const CN_PREFIXES = {
  134: 2,
  135: 4,
  136: 4,
  137: 4,
  138: 6,
  139: 6,
  147: 1,
  150: 3,
  151: 3,
  152: 3,
  157: 2,
  158: 3,
  159: 3,
  178: 2,
  182: 3,
  183: 2,
  184: 1,
  187: 3,
  188: 3,
  198: 2,
  130: 2,
  131: 2,
  132: 2,
  155: 2,
  156: 2,
  166: 2,
  175: 1,
  176: 2,
  185: 2,
  186: 3,
  133: 2,
  153: 2,
  173: 1,
  177: 2,
  180: 2,
  181: 2,
  189: 3,
  199: 2,
};
/** The host city's region blocks (the four digits after the prefix): most of a venue's crowd is local. */
const LOCAL_BLOCKS = ['2100', '2101', '2108', '2116', '2170', '2171', '1600', '1606'];

/** A Chinese mobile number: national 11 digits. */
function cnMobile(r) {
  const block = r.chance(0.65) ? r.pick(LOCAL_BLOCKS) : r.digits(4);
  return `${r.weighted(CN_PREFIXES)}${block}${r.digits(4)}`;
}

/** A few visitors from abroad (the form's country list has each): national numbers without the trunk 0. */
const ABROAD = [
  { areaCode: '+66', national: (r) => `${r.pick(['81', '86', '89', '92', '95'])}${r.digits(7)}` },
  { areaCode: '+60', national: (r) => `1${r.pick(['2', '6', '7', '9'])}${r.digits(7)}` },
  { areaCode: '+84', national: (r) => `${r.pick(['90', '91', '93', '98', '70', '86'])}${r.digits(7)}` },
];

const MAIL_DOMAINS = {
  'qq.com': 5,
  '163.com': 3,
  '126.com': 1,
  'gmail.com': 2,
  'outlook.com': 1,
  'sina.com': 1,
  'foxmail.com': 1,
  'hkexpo-buyers.cn': 1,
};
const SYLLABLES = [
  'wang',
  'li',
  'zhang',
  'liu',
  'chen',
  'yang',
  'zhao',
  'huang',
  'zhou',
  'wu',
  'xu',
  'sun',
  'hu',
  'zhu',
  'gao',
  'lin',
  'he',
  'guo',
  'ma',
  'luo',
];
const GIVEN = [
  'wei',
  'fang',
  'na',
  'min',
  'jing',
  'lei',
  'yang',
  'jun',
  'yong',
  'yan',
  'jie',
  'tao',
  'ming',
  'chao',
  'xia',
  'ping',
  'gang',
  'hui',
];
const HANZI_FAMILY = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
const HANZI_GIVEN = '伟芳娜敏静磊洋军勇艳杰涛明超霞平刚辉';

/** One contact: an e-mail (60 %) or a phone (40 %: +86 mostly, a few +66 / +60 / +84). */
function contactFor(r, i, tag) {
  if (r.chance(0.6)) {
    const domain = r.weighted(MAIL_DOMAINS);
    return { type: 'email', email: `${r.pick(SYLLABLES)}${r.pick(GIVEN)}${tag}${i}@${domain}` };
  }
  if (r.chance(0.92)) return { type: 'phone', areaCode: '+86', phone: cnMobile(r) };
  const abroad = r.pick(ABROAD);
  return { type: 'phone', areaCode: abroad.areaCode, phone: abroad.national(r) };
}

/** The contact as the outbox and the registrations key it: the e-mail lower-cased, or the full E.164 phone. */
export function contactKeyOf(c) {
  return c.type === 'email' ? c.email.toLowerCase() : `${c.areaCode}${c.phone}`;
}

/** The lookup form's contact fields for a contact (what a visitor types). */
export function typedFields(c) {
  return c.type === 'email'
    ? { checkType: '2', email: c.email }
    : { checkType: '1', areaCode: c.areaCode, phone: c.phone };
}

/** A name as a visitor types it on a form. */
function nameFor(r) {
  return r.chance(0.8)
    ? `${HANZI_FAMILY[r.int(0, HANZI_FAMILY.length - 1)]}${HANZI_GIVEN[r.int(0, HANZI_GIVEN.length - 1)]}${r.chance(0.5) ? HANZI_GIVEN[r.int(0, HANZI_GIVEN.length - 1)] : ''}`
    : `${r.pick(GIVEN)} ${r.pick(SYLLABLES)}`.replace(/\b\w/g, (s) => s.toUpperCase());
}

/** An unused euCode: 16 characters of base32, as the reference makes them. */
function euCode(r) {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return Array.from({ length: 16 }, () => abc[r.int(0, 31)]).join('');
}

/**
 * Demo contacts of functions/reference/SEED.md with registrations on expo 1308, one phone each
 * (the upstream allows a contact one send a minute per expo, so they cannot be shared).
 */
export const DEMO_CONTACTS = [
  { type: 'email', email: 'one@demo.test', expect: 'credential' },
  { type: 'email', email: 'several@demo.test', expect: 'list' },
  { type: 'phone', areaCode: '+86', phone: '13800138000', expect: 'list' },
  { type: 'email', email: 'gate-once@demo.test', expect: 'credential' },
  { type: 'email', email: 'gate-twoday@demo.test', expect: 'credential' },
];

/** The lockout victim: a demo contact with one unlimited credential on 1308 (SEED.md). */
export const VICTIM = { type: 'phone', areaCode: '+86', phone: '13900139000' };
/** The exhibitor whose e-mail the bypass harvesters look up on 10542 (SEED.md). */
export const EXHIBITOR = 'exhibitor@demo.test';

/**
 * The visitors of one morning, `n` of them (at least DEMO_CONTACTS.length + 10): kinds, networks,
 * contacts, arrival (seconds after the doors open, over `morningS`), JSON or form posts and what
 * each will do. Pre-registered visitors get a registration seeded on the organiser's side before
 * the morning ({@link preRegistrationSql}).
 */
export function visitorsFor({ n, seed, morningS }) {
  const r = rng(seed);
  const demo = DEMO_CONTACTS.length;
  const rest = Math.max(0, n - demo);
  const buyers = Math.round(rest * 0.1);
  const walkIns = Math.round(rest * 0.33);
  const pre = rest - buyers - walkIns;
  const kinds = r.shuffle([
    ...Array(pre).fill('pre-registered'),
    ...Array(walkIns).fill('walk-in'),
    ...Array(buyers).fill('buyer'),
    ...Array(demo).fill('demo'),
  ]);
  // networks by quota (not by chance): the venue's share is a floor, so a run always has a third behind one address.
  const quota = {
    venue: Math.ceil(n * NETWORK_SHARES.venue),
    carrierA: Math.round(n * NETWORK_SHARES.carrierA),
    carrierB: Math.round(n * NETWORK_SHARES.carrierB),
  };
  const nets = r
    .shuffle([
      ...Array(quota.venue).fill('venue'),
      ...Array(quota.carrierA).fill('carrierA'),
      ...Array(quota.carrierB).fill('carrierB'),
      ...Array(Math.max(0, n - quota.venue - quota.carrierA - quota.carrierB)).fill('ipv6'),
    ])
    .slice(0, n);
  const seen = new Set([VICTIM, ...DEMO_CONTACTS].map(contactKeyOf));
  let demoIndex = 0;
  return kinds.map((kind, i) => {
    const net = nets[i];
    const ip = net === 'ipv6' ? ipv6In(r, ADDRESSES.ipv6Prefix48) : ADDRESSES[net];
    let contact;
    if (kind === 'demo') contact = DEMO_CONTACTS[demoIndex++];
    else {
      do contact = contactFor(r, i, kind === 'buyer' ? 'b' : '');
      while (seen.has(contactKeyOf(contact)));
      seen.add(contactKeyOf(contact));
    }
    // Arrivals: a third spread over the morning, two thirds around the doors' opening (at 40 %).
    const u = r.chance(0.34)
      ? r.next()
      : Math.min(0.999, Math.max(0, 0.4 + (r.next() + r.next() + r.next() - 1.5) * 0.38));
    return {
      id: i + 1,
      kind,
      net,
      ip,
      contact,
      mode: r.chance(0.7) ? 'json' : 'form',
      arrivalS: Math.round(u * morningS * 1000) / 1000,
      wrongFirst: r.chance(0.08),
      registers: kind === 'walk-in' && r.chance(0.35),
      wantsDayPass: kind === 'buyer' && r.chance(0.3),
      refreshes: r.int(0, 10) < 3 ? r.int(1, 2) : 0,
      name: nameFor(r),
      company: `${r.pick(['华信', '东方', '远航', '金桥', '蓝海', '北辰', '南方', '星海'])}${r.pick(['科技', '贸易', '电子', '物流', '实业'])}有限公司`,
      idNumber: `E${String(10_000_000 + i * 7919 + r.int(0, 7918)).slice(-8)}`,
      preCode: kind === 'pre-registered' ? euCode(r) : null,
      unlimited: r.chance(0.1),
      think: { contactS: r.between(2, 5), codeS: r.between(3, 8), formS: r.between(15, 35), retryS: r.between(1, 3) },
    };
  });
}

/** SQL string literal. */
const sql = (s) => (s === null || s === undefined ? 'NULL' : `'${String(s).replace(/'/g, "''")}'`);

/**
 * The registrations of the pre-registered visitors on 1308 (visitor url 21308), owned by their
 * contact as if made through the form weeks before (functions/reference/SEED.md "Owners").
 */
export function preRegistrationSql(visitors) {
  const rows = visitors
    .filter((v) => v.preCode)
    .map((v) => {
      const email = v.contact.type === 'email' ? v.contact.email : null;
      const phone = v.contact.type === 'phone' ? `${v.contact.areaCode}${v.contact.phone}` : null;
      return `(1308, 21308, ${sql(v.preCode)}, ${sql(v.name)}, 0, '2026-10-${String(1 + (v.id % 28)).padStart(2, '0')} 10:00:00', ${sql(v.company)}, ${sql(v.idNumber)}, 'Manager', ${sql(email)}, ${sql(phone)}, ${sql(email)}, ${sql(phone)}, 0, 0, ${v.unlimited ? 0 : 1}, 0)`;
    });
  if (rows.length === 0) return '';
  const head =
    'INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime, ucompany, ucardid, ucompany_title, email, phone, owner_email, owner_phone, use_status, used_count, max_count, audit_status) VALUES';
  // in chunks: one statement stays small
  const out = [];
  for (let i = 0; i < rows.length; i += 100)
    out.push(`${head}\n${rows.slice(i, i + 100).join(',\n')}\nON CONFLICT DO NOTHING;`);
  return `${out.join('\n')}\n`;
}
