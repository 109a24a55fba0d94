/**
 * What a fake upstream port answers: the contract's one result type (src/lib/contract/result.ts
 * `UpstreamResult`). A fake gives only the fields the code under test reads, so a success's data
 * is typed as any call's (`never`); a refusal carries the contract's own fields.
 */
export const okReply = (data: unknown) => ({ ok: true as const, code: 200, msg: null, data: data as never });
export const refusedReply = (code: number, msg: string | null = null) => ({ ok: false as const, kind: 'refused' as const, code, msg });
