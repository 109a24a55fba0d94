/**
 * "Save to Google Wallet" ("Wallet passes"): a save link whose JWT is signed RS256 with
 * the operator's service-account key, made with Web Crypto (workerd and Node alike). The pass is
 * a Generic pass (class and object in the JWT, so nothing has to exist in the issuer account
 * beforehand) with the registration code as a QR barcode. Its texts are the credential page's, in
 * the language the visitor asked the pass in (the page's), and tagged with that language (BCP 47,
 * src/lib/core/languages.ts htmlLang), so Google Wallet neither reads Thai or Chinese as English
 * nor offers to translate it. The pass has no field labels of its own (card title, header and
 * subheader are values), so nothing else is translated here.
 * Google's format: https://developers.google.com/wallet/generic/web (JWT `typ: savetowallet`).
 */
import { htmlLang, type Lang } from '../core/languages';
import { toBase64url } from '../util/base64url';

/** The operator's secrets (README "Configuration"): all three, or no button. */
export interface GoogleWalletKeys {
  /** GOOGLE_WALLET_ISSUER_ID: the issuer account's numeric id */
  issuerId: string;
  /** GOOGLE_WALLET_SA_EMAIL: the service account's client_email */
  serviceAccountEmail: string;
  /** GOOGLE_WALLET_SA_KEY: the service account's private_key, PKCS#8 PEM */
  privateKeyPem: string;
}

/** What the pass shows. */
export interface WalletPass {
  euCode: string;
  expoId: number;
  expoName: string;
  attendeeName: string;
  attendeeClass: string;
}

/** A Google pass: its texts and the page language they are in. */
export interface GooglePass extends WalletPass {
  lang: Lang;
}

/** The keys from the environment, or null when any is missing (then the button is not shown). */
export function googleWalletKeys(env: Record<string, unknown>): GoogleWalletKeys | null {
  const issuerId = env['GOOGLE_WALLET_ISSUER_ID'];
  const serviceAccountEmail = env['GOOGLE_WALLET_SA_EMAIL'];
  const privateKeyPem = env['GOOGLE_WALLET_SA_KEY'];
  if (typeof issuerId !== 'string' || !/^\d{1,30}$/.test(issuerId)) return null;
  if (typeof serviceAccountEmail !== 'string' || !serviceAccountEmail.includes('@')) return null;
  if (typeof privateKeyPem !== 'string' || !privateKeyPem.includes('PRIVATE KEY')) return null;
  return { issuerId, serviceAccountEmail, privateKeyPem };
}

const b64u = (text: string) => toBase64url(new TextEncoder().encode(text));

function pemBody(pem: string): Uint8Array<ArrayBuffer> {
  // Service-account JSON keeps newlines as "\n" text: accept both.
  const body = pem.replace(/\\n/g, '\n').replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  const bin = atob(body);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** An id part Google accepts (letters, digits, `.`, `_`, `-`). */
const idPart = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

/** The JWT claims of a save link (unsigned). */
export function googleWalletClaims(keys: GoogleWalletKeys, pass: GooglePass, origin: string, nowS: number): Record<string, unknown> {
  const classId = `${keys.issuerId}.expo_${pass.expoId}`;
  const language = htmlLang(pass.lang);
  const text = (value: string) => ({ defaultValue: { language, value } });
  return {
    iss: keys.serviceAccountEmail,
    aud: 'google',
    typ: 'savetowallet',
    iat: nowS,
    origins: [origin],
    payload: {
      genericClasses: [{ id: classId }],
      genericObjects: [
        {
          id: `${keys.issuerId}.${idPart(`${pass.expoId}_${pass.euCode}`)}`,
          classId,
          state: 'ACTIVE',
          cardTitle: text(pass.expoName || 'Expo Pass'),
          header: text(pass.attendeeName || pass.euCode),
          subheader: text(pass.attendeeClass),
          barcode: { type: 'QR_CODE', value: pass.euCode, alternateText: pass.euCode },
        },
      ],
    },
  };
}

/**
 * The "Save to Google Wallet" URL: `https://pay.google.com/gp/v/save/{JWT}`, RS256.
 * @example await googleWalletSaveUrl(keys, pass, 'https://expo.example') // 'https://pay.google.com/gp/v/save/eyJ…'
 */
export async function googleWalletSaveUrl(keys: GoogleWalletKeys, pass: GooglePass, origin: string, nowS = Math.floor(Date.now() / 1000)): Promise<string> {
  const key = await crypto.subtle.importKey('pkcs8', pemBody(keys.privateKeyPem), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  const signingInput = `${b64u(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${b64u(JSON.stringify(googleWalletClaims(keys, pass, origin, nowS)))}`;
  const signature = new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, new TextEncoder().encode(signingInput)));
  return `https://pay.google.com/gp/v/save/${signingInput}.${toBase64url(signature)}`;
}
