/**
 * The upstream's refusals as the visitor reads them (spec §8).
 *
 * Spec §8 shows "the server msg" of a refusal, but the organiser's API writes its messages in
 * one language (the reference in English: "too frequent: wait 58 s before requesting another
 * code", "unknown expo 9999"), and the page may be in Thai. The refusals the product knows are
 * mapped to catalogue texts in the page language, with the wait in seconds where there is one;
 * any other message is shown as it came, cut to a readable length, under a translated lead
 * sentence. What is recognised is data ({@link REFUSAL_RULES}), keyed on the reply code where
 * docs/upstream.md gives one (600: a send refused) and on the message's shape: the contract fixes no
 * wording, so the shapes are the reference's English ones (functions/reference: sendLimit.ts,
 * verificationCode.ts, expo.ts) and the legacy API's Chinese ones.
 */

/** What a refusal says, as far as the product understands it. */
export type RefusalKind =
  /** a send within the 60 s after the last one (spec §9) */
  | 'sendTooSoon'
  /** too many sends to this contact in the upstream's window */
  | 'sendTooMany'
  /** the upstream does not know the event */
  | 'unknownExpo'
  /** the code took its wrong tries (reference: 5) and can no longer be used */
  | 'codeLocked'
  /** the code is past its life (reference: 10 minutes) */
  | 'codeExpired'
  /** the code was already used */
  | 'codeUsed'
  /** no code was ever sent to this contact on this event */
  | 'codeNone'
  /** a wrong code with tries left: spec §8 shows nothing */
  | 'codeWrong'
  /** a registration refused because its phone or ID number belongs to another contact's registration */
  | 'registeredElsewhere'
  /** anything else: shown as it came, under a lead sentence */
  | 'other';

/** The catalogue keys this module names (they exist in every src/i18n file). */
export type RefusalKey =
  | 'search.waitResend'
  | 'search.sendTooMany'
  | 'search.unknownExpo'
  | 'search.codeLocked'
  | 'search.codeExpired'
  | 'search.codeUsed'
  | 'search.codeNone'
  | 'search.upstreamSaid'
  | 'search.otherError'
  | 'rules.registeredElsewhere'
  | 'error.generic';

/** A refusal read for display. */
export interface RefusalView {
  kind: RefusalKind;
  /** the catalogue text to show; null: nothing (a wrong code, spec §8) */
  key: RefusalKey | null;
  /** `{{n}}`: the wait in seconds, when the message gave one */
  vars: Record<string, number>;
  /** for `other`: the upstream's own words, cut to {@link UPSTREAM_TEXT_MAX}; else null */
  text: string | null;
  /** true when the code can no longer work: the visitor needs a new one, and the send button must not wait for it */
  newCodeNeeded: boolean;
}

/** An unknown upstream message is cut to this many characters: two lines on a 320 px phone, a little more on a toast. */
export const UPSTREAM_TEXT_MAX = 120;

interface RefusalRule {
  kind: Exclude<RefusalKind, 'other'>;
  /** reply codes it applies to; undefined: any refusal code (the contract names none) */
  codes?: readonly number[];
  /** the message's shape */
  pattern: RegExp;
  key: RefusalKey | null;
  newCodeNeeded: boolean;
  /** reads `{{n}}` (seconds) from the message */
  wait?: boolean;
  /** only when the caller names it in `kinds` (a registration's refusal, not a code step's) */
  named?: true;
}

/** Seconds in a message: "wait 58 s", "58 seconds", "58秒". */
const SECONDS = /(\d{1,5})\s*(?:s\b|sec(?:ond)?s?\b|秒)/i;

/**
 * The refusals the product recognises, first match wins. Order matters where shapes overlap:
 * "the code is wrong; no tries left, request a new code" is a locked code, not a wrong one.
 */
export const REFUSAL_RULES: readonly RefusalRule[] = [
  // docs/upstream.md: send calls refuse with 600 "too frequent"; the reference adds the wait.
  { kind: 'sendTooSoon', codes: [600], pattern: /too frequent|too soon|wait\s+\d+\s*s\b|频繁|頻繁|稍后再|稍後再/i, key: 'search.waitResend', newCodeNeeded: false, wait: true },
  { kind: 'sendTooMany', codes: [600], pattern: /too many (?:[\w-]+ )?(?:codes|sms|messages|requests)|an hour|per hour|上限|次数过多|次數過多/i, key: 'search.sendTooMany', newCodeNeeded: false },
  { kind: 'unknownExpo', pattern: /unknown expo|expo\b.*\bnot (?:found|exist)|no such expo|展会不存在|展會不存在/i, key: 'search.unknownExpo', newCodeNeeded: false },
  { kind: 'codeLocked', pattern: /too many wrong|no tries left|tries (?:are )?used up|\blocked\b|错误次数过多|錯誤次數過多/i, key: 'search.codeLocked', newCodeNeeded: true },
  { kind: 'codeExpired', pattern: /expired|失效|过期|過期/i, key: 'search.codeExpired', newCodeNeeded: true },
  { kind: 'codeUsed', pattern: /already been used|already used|已使用/i, key: 'search.codeUsed', newCodeNeeded: true },
  { kind: 'codeNone', pattern: /no code was sent|request a code first|请先获取|請先取得/i, key: 'search.codeNone', newCodeNeeded: true },
  { kind: 'codeWrong', pattern: /code is wrong|wrong code|incorrect|验证码错误|驗證碼錯誤/i, key: null, newCodeNeeded: false },
  // An organiser's API that still refuses a collision (docs/upstream.md "Collisions are answered
  // neutrally" asks it not to) says so in its own language; the page says it in the visitor's.
  {
    kind: 'registeredElsewhere',
    pattern: /registered (?:with|to|by|under) another|another (?:contact|user|account)|已被(?:其他|他人)|已被注册|已被註冊|已登记|已登記/i,
    key: 'rules.registeredElsewhere',
    newCodeNeeded: false,
    named: true,
  },
];

/**
 * The refusals a registration (`/api/register`, addUserInfo and its config read) can meet: the
 * code-step kinds are not among them ("incorrect" in a registration refusal is about a value,
 * not a code, and must not read as spec §8's silent wrong code).
 */
export const REGISTER_REFUSALS: ReadonlySet<RefusalKind> = new Set(['unknownExpo', 'registeredElsewhere']);

/**
 * A text cut to `max` characters with an ellipsis, whitespace collapsed, never between the
 * halves of a surrogate pair.
 * @example cutText('a'.repeat(200), 10) // 'aaaaaaaaa…'
 */
export function cutText(text: string, max: number = UPSTREAM_TEXT_MAX): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const head = t.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

/**
 * Reads an upstream refusal (a reply code other than 200/201/202 and its `msg`); `kinds`: only
 * these rules apply (a registration's, {@link REGISTER_REFUSALS}), else every one.
 * @example readRefusal(600, 'too frequent: wait 58 s before requesting another code')
 *   // { kind: 'sendTooSoon', key: 'search.waitResend', vars: { n: 58 }, text: null, newCodeNeeded: false }
 * @example readRefusal(600, 'blocked by the carrier')
 *   // { kind: 'other', key: 'search.upstreamSaid', vars: {}, text: 'blocked by the carrier', newCodeNeeded: false }
 */
export function readRefusal(code: number, msg: string | null | undefined, kinds?: ReadonlySet<RefusalKind>): RefusalView {
  const said = (msg ?? '').replace(/\s+/g, ' ').trim();
  const rule = REFUSAL_RULES.find(
    (r) => (kinds === undefined ? r.named !== true : kinds.has(r.kind)) && (r.codes === undefined || r.codes.includes(code)) && r.pattern.test(said),
  );
  if (rule) {
    const seconds = rule.wait ? Number(SECONDS.exec(said)?.[1] ?? NaN) : NaN;
    // A send refused without a readable wait still says "wait": the spec's 60 s (§9).
    const vars = rule.wait ? { n: Number.isInteger(seconds) && seconds > 0 ? seconds : 60 } : {};
    return { kind: rule.kind, key: rule.key, vars, text: null, newCodeNeeded: rule.newCodeNeeded };
  }
  // spec §8: the server msg, or 'error' when there is none.
  if (said === '') return { kind: 'other', key: 'error.generic', vars: {}, text: null, newCodeNeeded: false };
  return { kind: 'other', key: 'search.upstreamSaid', vars: {}, text: cutText(said), newCodeNeeded: false };
}

/**
 * The refusal as one text in the page language: the catalogue text, or for an unknown message
 * the lead sentence with the upstream's words on the next line (shown with `white-space:
 * pre-line`). Empty for a refusal that shows nothing (a wrong code, spec §8).
 * @param t the page's translator
 */
export function refusalText(view: RefusalView, t: (key: RefusalKey, vars?: Record<string, number>) => string): string {
  if (view.key === null) return '';
  const lead = t(view.key, view.vars);
  return view.text ? `${lead}\n${view.text}` : lead;
}
