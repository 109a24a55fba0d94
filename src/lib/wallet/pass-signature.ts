/**
 * The signature of an Apple Wallet pass: a detached CMS / PKCS#7 SignedData
 * (RFC 5652) over `manifest.json`, signed with the pass type id certificate's key (RSA,
 * SHA-256), carrying the signer certificate and Apple's WWDR intermediate, with the
 * contentType, signingTime and messageDigest signed attributes Wallet checks. Built with PKIjs
 * over Web Crypto, so it runs on workerd as in Node; `openssl smime -verify` accepts it
 * (tests/e2e/wallet.spec.ts).
 *
 * PKIjs (~0.6 MB of JavaScript) is imported on first use, so a Worker without the APPLE_*
 * secrets never loads it and an isolate's start does not pay for it.
 */
import type * as Pkijs from 'pkijs';
import type { AppleWalletKeys } from './apple-pass';
import { pemDer } from './apple-pass';

/** A loaded signer: the key and the two certificates, checked to belong together. */
export interface PassSigner {
  key: CryptoKey;
  cert: Pkijs.Certificate;
  wwdr: Pkijs.Certificate;
}

const libraries = () => Promise.all([import('pkijs'), import('asn1js')]);

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
} as const;

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

function certificate(pkijs: typeof Pkijs, pem: string, what: string): Pkijs.Certificate {
  const der = pemDer(pem, 'CERTIFICATE');
  if (!der) throw new Error(`${what} is not a PEM certificate`);
  return pkijs.Certificate.fromBER(der);
}

const bytesEqual = (a: ArrayBuffer, b: ArrayBuffer) => a.byteLength === b.byteLength && new Uint8Array(a).every((v, i) => v === new Uint8Array(b)[i]);

/**
 * Reads the secrets into a signer, or throws saying what is wrong: a certificate that does
 * not parse, a key that is not an RSA PKCS#8 key, a key that is not the certificate's.
 */
export async function loadPassSigner(keys: Pick<AppleWalletKeys, 'certPem' | 'keyPem' | 'wwdrPem'>): Promise<PassSigner> {
  const [pkijs] = await libraries();
  const cert = certificate(pkijs, keys.certPem, 'APPLE_PASS_CERT');
  const wwdr = certificate(pkijs, keys.wwdrPem, 'APPLE_WWDR_CERT');
  const der = pemDer(keys.keyPem, 'PRIVATE KEY');
  if (!der) throw new Error('APPLE_PASS_KEY is not a PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----)');
  // Extractable once, to compare its public half with the certificate's; the signing key is not.
  const probe = await crypto.subtle.importKey('pkcs8', der, RSA, true, ['sign']);
  const { n = '', e = '' } = (await crypto.subtle.exportKey('jwk', probe)) as JsonWebKey;
  const publicJwk: JsonWebKey = { kty: 'RSA', n, e };
  // The spki export is bytes (the Workers types name both export shapes in one return type).
  const publicFromKey = (await crypto.subtle.exportKey('spki', await crypto.subtle.importKey('jwk', publicJwk, RSA, true, ['verify']))) as ArrayBuffer;
  const publicFromCert = cert.subjectPublicKeyInfo.toSchema().toBER(false);
  if (!bytesEqual(publicFromKey, publicFromCert)) throw new Error('APPLE_PASS_KEY is not the key of APPLE_PASS_CERT');
  const key = await crypto.subtle.importKey('pkcs8', der, RSA, false, ['sign']);
  return { key, cert, wwdr };
}

const signers = new Map<string, Promise<PassSigner>>();

/**
 * {@link loadPassSigner}, once per isolate for the same secrets (the page checks the secrets on
 * every render; the route signs with the same signer). A failure is not kept.
 */
export function passSigner(keys: Pick<AppleWalletKeys, 'certPem' | 'keyPem' | 'wwdrPem'>): Promise<PassSigner> {
  const id = `${keys.certPem}\n${keys.keyPem}\n${keys.wwdrPem}`;
  let pending = signers.get(id);
  if (!pending) {
    pending = loadPassSigner(keys);
    signers.set(id, pending);
    pending.catch(() => signers.delete(id));
  }
  return pending;
}

/**
 * The detached signature of `manifest` (DER bytes of a ContentInfo holding SignedData).
 * @param now the signingTime attribute
 */
export async function signManifest(signer: PassSigner, manifest: Uint8Array, now: Date): Promise<Uint8Array> {
  const [pkijs, asn1js] = await libraries();
  const data = manifest as Uint8Array<ArrayBuffer>;
  const digest = await crypto.subtle.digest('SHA-256', data);
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }), // no eContent: detached
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.cert.issuer, serialNumber: signer.cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
            new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: now })] }),
            new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
          ],
        }),
      }),
    ],
    certificates: [signer.cert, signer.wwdr],
  });
  await signed.sign(signer.key, 0, 'SHA-256', data);
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}
