/**
 * The gate's scanner island (camera, offline list, queue and sync). Placeholder: the scanner is
 * being built; until then the gate page's manual form (no JavaScript) is the whole gate.
 */
export const GATE_SCANNER_STRING_KEYS = ['gateScan.title'] as const;

export interface GateScannerProps {
  /** the route's base64url expo id */
  eid: string;
  expoId: number;
  /** this gate's name, from the staff key */
  gate: string;
  strings: Record<(typeof GATE_SCANNER_STRING_KEYS)[number], string>;
}

export default function GateScanner(_props: GateScannerProps) {
  return null;
}
