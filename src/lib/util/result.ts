/**
 * What an upstream call answers, in the shape of the upstream client (functions/upstream) without
 * importing it: a success with its data, or a refusal with its code and message (spec §8).
 * Below every folder that reads a call's answer (the actions, the gate's fault reading), so none
 * of them imports another for the type.
 */
export type Result<T> = { ok: true; data: T } | { ok: false; code: number; msg: string | null };
