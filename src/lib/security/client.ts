/**
 * Who a request comes from, as the abuse limits count it (README "Security" > "Abuse limits"):
 * the `CF-Connecting-IP` address read as IPv4 or IPv6, the keys it is counted under (an IPv6
 * client by its /64, /56 and /48 networks), and the networks the operator trusts. Pure.
 */

/** The bucket every request without a client address shares (README "Abuse limits"). */
export const UNKNOWN_CLIENT = 'unknown';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(text: string): number[] | null {
  let s = text.toLowerCase();
  let tail: number[] = [];
  // An IPv4 address in the last 32 bits (`::ffff:192.0.2.1`) stands for the last two groups.
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!IPV4.test(last)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
    tail = [(a << 8) | b, (c << 8) | d];
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (!head || !rest) return null;
  const want = 8 - tail.length;
  if (halves.length === 2) {
    if (head.length + rest.length >= want) return null;
    return [...head, ...new Array<number>(want - head.length - rest.length).fill(0), ...rest, ...tail];
  }
  return head.length === want ? [...head, ...tail] : null;
}

/** An address read from `CF-Connecting-IP`: IPv4 as 4 bytes, IPv6 as 8 groups (an IPv4-mapped one as its IPv4). */
export type Address = { v: 4; bytes: number[] } | { v: 6; groups: number[] };

/** The address of a `CF-Connecting-IP` header, or null when it is missing or unreadable. */
export function parseAddress(header: string | null | undefined): Address | null {
  const text = (header ?? '').trim();
  if (IPV4.test(text)) return { v: 4, bytes: text.split('.').map(Number) };
  if (!text.includes(':')) return null;
  const groups = ipv6Groups(text);
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [a = 0, b = 0] = groups.slice(6);
    return { v: 4, bytes: [a >> 8, a & 255, b >> 8, b & 255] };
  }
  return { v: 6, groups };
}

/** An IPv6 network of `bits` (a multiple of 8) as the limiter names it: `2001:db8:100::/56`. */
function v6Network(groups: number[], bits: 48 | 56 | 64): string {
  const kept = groups.map((g, i) => {
    const start = i * 16;
    if (start >= bits) return 0;
    return start + 16 <= bits ? g : g & (0xffff << (start + 16 - bits)) & 0xffff;
  });
  const head = kept.slice(0, Math.ceil(bits / 16)).map((g) => g.toString(16));
  return `${head.join(':')}::/${bits}`;
}

/**
 * The client a request is counted as, from its `CF-Connecting-IP` header: an IPv4 address as
 * is; an IPv6 address by its /64 network (one subscriber usually holds a whole /64 and can
 * pick any address in it); an IPv4-mapped IPv6 address as its IPv4. Missing or unreadable:
 * {@link UNKNOWN_CLIENT}, one bucket shared by all such requests (on Cloudflare the header is
 * always set; it is missing only for in-process calls, e.g. tests).
 * @example clientKey('203.0.113.7') // '203.0.113.7'
 * @example clientKey('2001:db8:1:2:3:4:5:6') // '2001:db8:1:2::/64'
 * @example clientKey(null) // 'unknown'
 */
export function clientKey(header: string | null | undefined): string {
  const a = parseAddress(header);
  if (!a) return UNKNOWN_CLIENT;
  return a.v === 4 ? a.bytes.join('.') : v6Network(a.groups, 64);
}

/**
 * A client as every per-address limit counts it: its address (IPv4, or the
 * IPv6 /64), and for IPv6 also its /56 and /48, each with a limit of its own, so that one /48
 * (65,536 /64s) is not 65,536 budgets. `trusted`: the address is in a network the operator
 * named (TRUSTED_NETWORKS, the venue's Wi-Fi): its per-address limits are raised.
 */
export interface Client {
  key: string;
  net56: string | null;
  net48: string | null;
  trusted: boolean;
}

/** @example clientOfHeader('2001:db8:1:2::9').net48 // '2001:db8:1::/48' */
export function clientOfHeader(header: string | null | undefined, trusted: readonly Network[] = []): Client {
  const a = parseAddress(header);
  if (!a) return { key: UNKNOWN_CLIENT, net56: null, net48: null, trusted: false };
  const v6 = a.v === 6;
  return {
    key: v6 ? v6Network(a.groups, 64) : a.bytes.join('.'),
    net56: v6 ? v6Network(a.groups, 56) : null,
    net48: v6 ? v6Network(a.groups, 48) : null,
    trusted: inNetworks(a, trusted),
  };
}

/** A network the operator trusts: its address bits and prefix length. */
export interface Network {
  v: 4 | 6;
  /** the address as 16-bit groups (IPv4: two groups) */
  groups: number[];
  prefix: number;
}

/**
 * Reads TRUSTED_NETWORKS: CIDRs (v4 or v6) separated by commas or blanks. An entry that is
 * not a CIDR is left out and `warn` names it.
 * @example parseNetworks('198.51.100.0/24, 2001:db8:aa::/48').length // 2
 */
export function parseNetworks(text: string | null | undefined, warn: (message: string) => void = () => {}): Network[] {
  const out: Network[] = [];
  for (const entry of (text ?? '').split(/[\s,]+/).filter((e) => e !== '')) {
    const [addr = '', bits = '', extra] = entry.split('/');
    const a = parseAddress(addr);
    const max = a?.v === 4 ? 32 : 128;
    const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!a || extra !== undefined || !(prefix >= 0 && prefix <= max) || (a.v === 4) !== IPV4.test(addr)) {
      warn(`TRUSTED_NETWORKS: "${entry}" is not a network like 198.51.100.0/24 or 2001:db8::/48; left out.`);
      continue;
    }
    out.push({ v: a.v, groups: groupsOf(a), prefix });
  }
  return out;
}

function groupsOf(a: Address): number[] {
  if (a.v === 6) return a.groups;
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = a.bytes;
  return [(b0 << 8) | b1, (b2 << 8) | b3];
}

/** True when the address lies in one of the networks. */
export function inNetworks(a: Address, networks: readonly Network[]): boolean {
  const groups = groupsOf(a);
  return networks.some((n) => {
    if (n.v !== a.v) return false;
    for (let bit = 0; bit < n.prefix; bit += 16) {
      const take = Math.min(16, n.prefix - bit);
      const mask = (0xffff << (16 - take)) & 0xffff;
      const i = bit / 16;
      if (((groups[i] ?? 0) & mask) !== ((n.groups[i] ?? 0) & mask)) return false;
    }
    return true;
  });
}

/** How much the per-address limits of a trusted network are raised (README "Abuse limits"). */
export const TRUSTED_FACTOR = 20;
