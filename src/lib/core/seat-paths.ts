/**
 * The seat result routes of spec §2.3, in a module of their own: the route table (./routes.ts)
 * matches them and src/lib/seat/seats.ts builds their links, and the seat lookup island that
 * imports the latter must not pull the route table (and the variants' zod schema) into the browser.
 */
export const SEAT_RESULT_PATHS = { zuowei: '/zuoweiSuccess', yejinji: '/successYeJinJi' } as const;
