/**
 * "Add to Apple Wallet" ("Wallet passes"): the pure parts of a `.pkpass`. A pass is a
 * zip of `pass.json`, its images, `manifest.json` (the SHA-1 hex of every other file) and
 * `signature` (a detached PKCS#7 signature of manifest.json: src/lib/wallet/pass-signature.ts).
 * Apple's format: https://developer.apple.com/documentation/walletpasses/pass and "Building a
 * Pass" (Wallet Developer Guide). Everything here runs the same on workerd and Node.
 */
import type { WalletPass } from './google-wallet';

/** The operator's secrets (README "Configuration"): all five, or no button and the route 404s. */
export interface AppleWalletKeys {
  /** APPLE_PASS_TYPE_ID: the pass type identifier, `pass.…` */
  passTypeId: string;
  /** APPLE_TEAM_ID: the developer account's 10-character team id */
  teamId: string;
  /** APPLE_PASS_CERT: the pass type id certificate, PEM */
  certPem: string;
  /** APPLE_PASS_KEY: its private key, PKCS#8 PEM */
  keyPem: string;
  /** APPLE_WWDR_CERT: Apple's WWDR intermediate certificate (G4), PEM */
  wwdrPem: string;
}

/** PEM text as stored in a secret: real newlines or `\n` escapes (as in JSON) both work. */
const unescapePem = (pem: string) => pem.replace(/\\n/g, '\n').trim();

/**
 * The keys from the environment, or null when any is missing or not of its shape (then no
 * "Add to Apple Wallet" link, and `/pass/…` answers 404).
 * @example appleWalletKeys({}) // null
 */
export function appleWalletKeys(env: Record<string, unknown>): AppleWalletKeys | null {
  const passTypeId = env['APPLE_PASS_TYPE_ID'];
  const teamId = env['APPLE_TEAM_ID'];
  const cert = env['APPLE_PASS_CERT'];
  const key = env['APPLE_PASS_KEY'];
  const wwdr = env['APPLE_WWDR_CERT'];
  if (typeof passTypeId !== 'string' || !/^pass\.[A-Za-z0-9][A-Za-z0-9.-]{0,200}$/.test(passTypeId)) return null;
  if (typeof teamId !== 'string' || !/^[A-Z0-9]{10}$/.test(teamId)) return null;
  const isPem = (v: unknown, label: string): v is string => typeof v === 'string' && v.includes(`-----BEGIN ${label}-----`);
  if (!isPem(cert, 'CERTIFICATE') || !isPem(key, 'PRIVATE KEY') || !isPem(wwdr, 'CERTIFICATE')) return null;
  return { passTypeId, teamId, certPem: unescapePem(cert), keyPem: unescapePem(key), wwdrPem: unescapePem(wwdr) };
}

/**
 * The DER bytes of the first PEM block with this label (`CERTIFICATE`, `PRIVATE KEY`), or null.
 * @example pemDer('-----BEGIN CERTIFICATE-----\nAQID\n-----END CERTIFICATE-----', 'CERTIFICATE') // Uint8Array [1, 2, 3]
 */
export function pemDer(pem: string, label: string): Uint8Array<ArrayBuffer> | null {
  const m = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(unescapePem(pem));
  if (!m?.[1]) return null;
  try {
    return Uint8Array.from(atob(m[1].replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The pass's field labels, in the language of the page the visitor came from. */
export interface PassLabels {
  /** `success.title`: the pass's description (VoiceOver reads it) */
  title: string;
  event: string;
  name: string;
  class: string;
  code: string;
}

/**
 * The serial number: one per expo and registration code, so the same credential always makes
 * the same pass (Wallet replaces it rather than adding a second one).
 * @example passSerial(1308, 'IWHBZIMYEOZETLFI') // '1308-IWHBZIMYEOZETLFI'
 */
export function passSerial(expoId: number, euCode: string): string {
  return `${expoId}-${euCode}`;
}

/**
 * The text the pass's QR code holds: the same string the credential page's QR encodes
 * (src/components/credential/QrImage.astro: the code of the credential URL), so the entrance's
 * scanners read the pass as they read the page.
 */
export function passBarcodeMessage(pass: Pick<WalletPass, 'euCode'>): string {
  return pass.euCode;
}

/** `pass.json`: an event ticket with the expo, the attendee's name and class, and the QR code. */
export function applePassJson(keys: Pick<AppleWalletKeys, 'passTypeId' | 'teamId'>, pass: WalletPass, labels: PassLabels): Record<string, unknown> {
  const expo = pass.expoName || 'Expo Pass';
  const field = (key: string, label: string, value: string) => ({ key, label, value });
  const message = passBarcodeMessage(pass);
  return {
    formatVersion: 1,
    passTypeIdentifier: keys.passTypeId,
    teamIdentifier: keys.teamId,
    serialNumber: passSerial(pass.expoId, pass.euCode),
    organizationName: expo,
    description: `${labels.title} · ${expo}`,
    logoText: expo,
    foregroundColor: 'rgb(31, 31, 31)',
    backgroundColor: 'rgb(255, 255, 255)',
    labelColor: 'rgb(96, 96, 96)',
    sharingProhibited: true,
    eventTicket: {
      primaryFields: [field('name', labels.name, pass.attendeeName || pass.euCode)],
      secondaryFields: [field('class', labels.class, pass.attendeeClass)],
      auxiliaryFields: [field('code', labels.code, pass.euCode)],
      backFields: [field('event', labels.event, expo)],
    },
    // iso-8859-1: the encoding Apple's examples give; a registration code is plain ASCII.
    barcodes: [{ format: 'PKBarcodeFormatQR', message, messageEncoding: 'iso-8859-1', altText: pass.euCode }],
  };
}

/** Lower-case hex of bytes. */
const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * `manifest.json`'s content: every file of the pass (not the manifest or the signature) by
 * name, with the SHA-1 of its bytes in hex, as Apple requires.
 * @example await passManifest({ 'a.txt': new TextEncoder().encode('abc') }) // { 'a.txt': 'a9993e364706816aba3e25717850c26c9cd0d89d' }
 */
export async function passManifest(files: Readonly<Record<string, Uint8Array>>): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(files).map(async ([name, bytes]) => [name, hex(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>))] as const),
  );
  return Object.fromEntries(entries);
}
