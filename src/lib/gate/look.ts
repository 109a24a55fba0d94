/**
 * How each scan result looks at the gate, on the server-rendered answer and in the scanner
 * island alike: its colour and the catalogue keys of its one huge word and of the sentence under
 * it. Its own module, so the island reads it without the server's code-reading rules.
 */
import type { GateResult } from './types';

/**
 * The colour of an answer: go (green), stop (red), wait (amber: a person to send to the desk),
 * check (calm blue: a code nobody has; staff check it with the visitor, issue 30: most such codes
 * are a real one mistyped or misread, not a fraud, and a red word shouted at arm's length is not
 * what the visitor in front of the phone should meet).
 */
export type GateTone = 'go' | 'stop' | 'wait' | 'check';

export const GATE_LOOK = {
  admitted: { tone: 'go', word: 'gate.wordAdmitted', explain: 'gate.explainAdmitted' },
  used: { tone: 'stop', word: 'gate.wordUsed', explain: 'gate.explainUsed' },
  otherExpo: { tone: 'stop', word: 'gate.wordOtherExpo', explain: 'gate.explainOtherExpo' },
  unknown: { tone: 'check', word: 'gate.wordUnknown', explain: 'gate.explainUnknown' },
  void: { tone: 'stop', word: 'gate.wordVoid', explain: 'gate.explainVoid' },
  review: { tone: 'wait', word: 'gate.wordReview', explain: 'gate.explainReview' },
  otherDay: { tone: 'wait', word: 'gate.wordOtherDay', explain: 'gate.explainOtherDay' },
} as const satisfies Readonly<Record<GateResult, { tone: GateTone; word: `gate.word${string}`; explain: `gate.explain${string}` }>>;
