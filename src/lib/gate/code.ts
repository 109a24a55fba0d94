/**
 * The one reading of a registration code at the gate (issue 30), for every way one arrives: typed
 * in the manual form (with and without JavaScript), read by the camera, hashed for the offline
 * list, sent to the organiser's check-in call. Pure and import-free: the scanner island and the
 * edge both run it (the island must not pull other src/lib modules into the visitor pages' shared
 * chunk: tests/unit/gate-offline.test.ts).
 *
 * Registration codes are RFC 4648 base32 (functions/reference/euCode.ts `ALPHABET`, the seed's
 * codes, the credential page's groups of four): upper case A–Z and 2–7. So a code is read
 * case-blind (a phone keyboard starts in lower case), with spaces and dashes dropped (read aloud
 * and typed in groups), full-width characters made plain (a Chinese or Japanese input method), and
 * the three characters the alphabet leaves out because they look like letters read as those
 * letters ({@link CONFUSABLES}). Nothing else is guessed: a text that does not become a code of
 * the alphabet that way is kept as it was typed (spaces dropped), so an organiser whose codes use
 * other characters still gets them exactly.
 */

/** The characters of a registration code (RFC 4648 §6 base32). */
export const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The characters base32 leaves out because they are read as one of its letters, and that letter:
 * the digit zero as O, one as I, eight as B. Only characters outside {@link CODE_ALPHABET}.
 */
export const CONFUSABLES: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '8': 'B' };

/** What any registration code may hold on the wire (docs/upstream.md: the credential link's rule). */
export const WIRE_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** The most characters a scan's text may have before it is not read at all (a QR holds far fewer). */
export const SCAN_TEXT_MAX = 2048;

/** Spaces of every kind and the dashes people type between groups (hyphen, the Unicode dashes, the minus sign). */
const SEPARATORS = /[\s\u002d\u00ad\u2010-\u2015\u2212\u30fc\uff0d]+/g;
const IN_ALPHABET = new RegExp(`^[${CODE_ALPHABET}]{1,64}$`);

/**
 * A typed or read code in the alphabet's own form: upper case, no spaces or dashes, 0/1/8 as
 * O/I/B; else (characters outside the alphabet and its confusables) the text with its spaces
 * dropped, when it is a code at all. Null when nothing like a code is left.
 * @example canonicalCode('pf4r 5mhu hipe qbhr') // 'PF4R5MHUHIPEQBHR'
 * @example canonicalCode('PF4R-5MHU-H1PE-QBHR') // 'PF4R5MHUHIPEQBHR'
 * @example canonicalCode('abc_9') // 'abc_9' (not base32: as typed)
 */
export function canonicalCode(text: string): string | null {
  const plain = text.normalize('NFKC');
  const folded = [...plain.replace(SEPARATORS, '').toUpperCase()].map((c) => CONFUSABLES[c] ?? c).join('');
  if (IN_ALPHABET.test(folded)) return folded;
  const raw = plain.replace(/\s+/g, '');
  return WIRE_CODE.test(raw) ? raw : null;
}

/**
 * The UTF-8 text of a base64url segment (a credential link's euCode), null when it is not base64.
 * A byte that is not UTF-8 becomes U+FFFD, which no code has.
 */
function base64urlText(segment: string): string | null {
  try {
    const b64 = segment.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** A credential page's address: `/{Variant}Success/{urlId}/{euCode}/…` (any host; haisi's `…SuccessEn` too). */
const CREDENTIAL_LINK = /^https?:\/\/[^/]+\/[A-Za-z0-9]*Success(?:En)?\/[^/?#]+\/([A-Za-z0-9_-]+)(?:[/?#]|$)/i;

/**
 * The registration code in what a scanner read or staff typed: {@link canonicalCode} of the text,
 * or, for the address of one of our credential pages (a photo of the page's address, an older
 * printout; the QR itself holds the bare code), of the code the address carries. Null when nothing
 * like a code is left: the gate answers "check the code" without asking the organiser.
 * @example normaliseCode(' pf4r 5mhu hipe qbhr ') // 'PF4R5MHUHIPEQBHR'
 * @example normaliseCode('https://x.example/IEAESuccess/MjEzMDg/UEY0UjVNSFVISVBFUUJIUg/MTMwOA/21308/') // 'PF4R5MHUHIPEQBHR'
 */
export function normaliseCode(text: string | null | undefined): string | null {
  const cut = (text ?? '').slice(0, SCAN_TEXT_MAX).trim();
  if (cut === '') return null;
  if (/^https?:\/\//i.test(cut)) {
    const seg = CREDENTIAL_LINK.exec(cut.replace(/\s+/g, ''))?.[1];
    const inner = seg ? base64urlText(seg) : null;
    return inner !== null && WIRE_CODE.test(inner) ? canonicalCode(inner) : null;
  }
  return canonicalCode(cut);
}

/**
 * Every reading of a typed or read code the organiser may know it by, the likeliest first:
 * {@link normaliseCode}'s (the alphabet's own form), then the text upper-cased with its
 * separators dropped but 0/1/8 kept, then as typed without separators. The base32 reading is a
 * guess about the organiser's codes (the spec fixes no alphabet; UPSTREAM.md only "random"): an
 * organiser whose codes hold a 0 or lower-case letters still has its code asked for as written.
 * The check-in call asks for the next only when the organiser does not know the one before.
 * @example codeReadings('ab0c-d1') // ['ABOCDI', 'AB0CD1', 'ab0cd1']
 * @example codeReadings('PF4R 5MHU') // ['PF4R5MHU']
 */
export function codeReadings(text: string | null | undefined): string[] {
  const first = normaliseCode(text);
  if (first === null) return [];
  const cut = (text ?? '').slice(0, SCAN_TEXT_MAX).trim();
  if (/^https?:\/\//i.test(cut)) return [first];
  const plain = cut.normalize('NFKC').replace(SEPARATORS, '');
  return [...new Set([first, plain.toUpperCase(), plain])].filter((c) => WIRE_CODE.test(c));
}
