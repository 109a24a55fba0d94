// What the rehearsal prints and writes (docs/rehearsal.md "Reading the output"): per kind of
// actor, per network, per gate, and what each attack got, against the budgets the product's
// source states (src/lib/security/limit-specs.ts, read as text: the rehearsal runs on any Node
// and survives a renamed limit, which then shows as "budget unknown").
import { readFileSync } from 'node:fs';

/** Nearest-rank percentile of numbers; null for none. */
export function percentile(values, p) {
  const sorted = (Array.isArray(values) ? values : [])
    .filter((x) => typeof x === 'number' && Number.isFinite(x))
    .sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const s1 = (ms) => (ms === null || ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
const msText = (ms) => (ms === null || ms === undefined ? '–' : `${Math.round(ms)} ms`);

/**
 * The limits as the product's source states them: `{ LIMIT_…: { fallback, windowS } }`, with
 * the environment's values when they were handed to the product (`--env-limits`); the shared
 * budgets' ceiling factor and ticket share from src/lib/security/limits.ts.
 */
export function readLimits(overrides = {}) {
  const limits = {};
  let ceilingFactor = null;
  let ticketShare = null;
  try {
    const text = readFileSync('src/lib/security/limit-specs.ts', 'utf8');
    for (const m of text.matchAll(/name:\s*'(LIMIT_[A-Z0-9_]+)',\s*fallback:\s*(\d+),\s*windowS:\s*(\d+)/g)) {
      limits[m[1]] = { value: Number(m[2]), windowS: Number(m[3]), source: 'default' };
    }
  } catch {
    /* unreadable: every budget unknown */
  }
  try {
    const text = readFileSync('src/lib/security/limits.ts', 'utf8');
    ceilingFactor = Number(/CEILING_FACTOR\s*=\s*([\d.]+)/.exec(text)?.[1] ?? NaN) || null;
    ticketShare = Number(/TICKET_SHARE\s*=\s*([\d.]+)/.exec(text)?.[1] ?? NaN) || null;
  } catch {
    /* unknown */
  }
  for (const [k, v] of Object.entries(overrides))
    if (limits[k] && /^\d+$/.test(v)) limits[k] = { ...limits[k], value: Number(v), source: 'environment' };
  return { limits, ceilingFactor, ticketShare };
}

/** A markdown-ish table: header row, rows of cells; columns padded. */
function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c ?? '')));
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  const line = (r) => `| ${r.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join(' | ')} |`;
  return [line(all[0]), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...all.slice(1).map(line)].join('\n');
}

/** What the kind of visitor came for (docs/rehearsal.md "Actors"). */
function reachedGoal(rec) {
  switch (rec.kind) {
    case 'buyer':
      return rec.reached === 'ticket';
    case 'walk-in':
      return rec.reached === 'form' || rec.reached === 'credential';
    default:
      return rec.reached === 'credential' || rec.reached === 'list' || rec.reached === 'form';
  }
}

/** One row of the visitors' table, for a group of records. */
function summarise(recs) {
  const times = recs.map((r) => r.credentialMs).filter((x) => x !== null);
  const goalTimes = recs.map((r) => r.goalMs).filter((x) => x !== null);
  return {
    n: recs.length,
    reachedGoal: recs.filter(reachedGoal).length,
    reachedCredentialListOrForm: recs.filter((r) => ['credential', 'list', 'form', 'ticket'].includes(r.reached ?? ''))
      .length,
    credential: recs.filter((r) => r.credentialMs !== null).length,
    list: recs.filter((r) => r.reached === 'list').length,
    form: recs.filter((r) => r.reached === 'form' || r.registered).length,
    registered: recs.filter((r) => r.registered).length,
    paid: recs.filter((r) => r.paid).length,
    refusals: recs.reduce((s, r) => s + r.refusals.length, 0),
    visitorsRefused: recs.filter((r) => r.refusals.length > 0).length,
    challenges: recs.reduce((s, r) => s + r.challenges.length, 0),
    visitorsChallenged: recs.filter((r) => r.challenges.length > 0).length,
    organiserRefusals: recs.reduce((s, r) => s + r.upstreamRefusals.length, 0),
    errors: recs.reduce((s, r) => s + r.errors.length, 0),
    gaveUp: recs.filter((r) => r.gaveUp).length,
    wrongCodesTyped: recs.reduce((s, r) => s + r.wrongCodesTyped, 0),
    credentialP50Ms: percentile(times, 50),
    credentialP95Ms: percentile(times, 95),
    credentialMaxMs: percentile(times, 100),
    credentialWaitP50Ms: percentile(
      recs.map((r) => r.credentialWaitMs),
      50,
    ),
    credentialWaitP95Ms: percentile(
      recs.map((r) => r.credentialWaitMs),
      95,
    ),
    goalP50Ms: percentile(goalTimes, 50),
    goalP95Ms: percentile(goalTimes, 95),
    requests: recs.reduce((s, r) => s + r.requests, 0),
  };
}

/** Budget and ceiling of a shared send budget, from the limits read. */
function budgetOf(limits, name) {
  const l = limits.limits[name];
  if (!l) return { name, budget: null, ceiling: null, ticketShare: null };
  const f = limits.ceilingFactor;
  return {
    name,
    budget: l.value,
    ceiling: f ? Math.round(l.value * f) : null,
    ticketShare: limits.ticketShare ? Math.max(1, Math.floor(l.value * limits.ticketShare)) : null,
    source: l.source,
  };
}

/** The pumper's sends per budget key, against that budget: the key with most, and every key past its budget. */
function pumpBudgets(pump, limits) {
  const families = [
    ['range', 'LIMIT_SENDS_PER_RANGE_HOUR', 'number range (+44 and 4 digits)'],
    ['area', 'LIMIT_SENDS_PER_AREA_HOUR', 'expo × destination country'],
    ['country', 'LIMIT_SENDS_PER_COUNTRY_HOUR', 'destination country, all expos'],
    ['expo', 'LIMIT_SENDS_PER_EXPO_HOUR', 'expo, every sender'],
  ];
  return families.map(([family, name, what]) => {
    const b = budgetOf(limits, name);
    const entries = Object.entries(pump?.sentBy?.[family] ?? {}).sort((a, b2) => b2[1] - a[1]);
    const past =
      b.budget === null
        ? null
        : entries
            .filter(([, n]) => n > b.budget)
            .map(([k, n]) => ({
              key: k,
              sent: n,
              pastBudget: n - b.budget,
              pastCeiling: b.ceiling === null ? null : Math.max(0, n - b.ceiling),
            }));
    return {
      family,
      what,
      ...b,
      keys: entries.length,
      top: entries[0] ? { key: entries[0][0], sent: entries[0][1] } : null,
      pastBudget: past,
      smsPastBudget: past === null ? null : past.reduce((s, p) => s + p.pastBudget, 0),
    };
  });
}

/** Everything the run measured, as results.json holds it. */
export function buildResults({ meta, records, gates, attacks, truth, limits, replyTimes }) {
  const byKind = {};
  for (const kind of ['pre-registered', 'walk-in', 'demo', 'buyer'])
    byKind[kind] = summarise(records.filter((r) => r.kind === kind));
  const real = records;
  const byNet = {};
  for (const net of ['venue', 'carrierA', 'carrierB', 'ipv6'])
    byNet[net] = summarise(records.filter((r) => r.net === net));
  const gateRows = (gates?.gates ?? []).map((g) => {
    const results = {};
    for (const s of g.scans) results[s.result] = (results[s.result] ?? 0) + 1;
    return {
      gate: g.name,
      opened: g.opened,
      scans: g.scans.length,
      results,
      answerP50Ms: percentile(
        g.scans.map((s) => s.ms),
        50,
      ),
      answerP95Ms: percentile(
        g.scans.map((s) => s.ms),
        95,
      ),
      queueP50Ms: percentile(
        g.scans.map((s) => s.queueMs),
        50,
      ),
      queueP95Ms: percentile(
        g.scans.map((s) => s.queueMs),
        95,
      ),
    };
  });
  const views = records.flatMap((r) => r.views);
  const refusalSteps = {};
  for (const r of records)
    for (const x of [...r.refusals, ...r.challenges])
      refusalSteps[`${x.step}: ${x.detail || `HTTP ${x.status}`}`.slice(0, 90)] =
        (refusalSteps[`${x.step}: ${x.detail || `HTTP ${x.status}`}`.slice(0, 90)] ?? 0) + 1;
  const gaveUp = {};
  for (const r of records) if (r.gaveUp) gaveUp[r.gaveUp.slice(0, 100)] = (gaveUp[r.gaveUp.slice(0, 100)] ?? 0) + 1;
  const guessedIds = new Set((attacks.guessing?.perTarget ?? []).map((t) => t.target));
  const targets = records.filter((r) => guessedIds.has(r.id));
  return {
    ...meta,
    limits: { ...limits.limits, CEILING_FACTOR: limits.ceilingFactor, TICKET_SHARE: limits.ticketShare },
    visitors: {
      all: summarise(real),
      byKind,
      byNetwork: byNet,
      refusedOrChallengedAt: refusalSteps,
      gaveUp,
      credentialViews: {
        views: views.length,
        statuses: views.reduce((o, v) => ((o[v.status] = (o[v.status] ?? 0) + 1), o), {}),
      },
      dayPass: {
        wanted: records.filter((r) => r.dayPass).length,
        bought: records.filter((r) => r.dayPass === 'bought').length,
        noneLeft: records.filter((r) => r.dayPass === 'none left').length,
      },
    },
    gates: gateRows,
    replyTimes,
    attacks: {
      smsPumping: summary(attacks.pumping, (x) => ({
        ...x,
        waitsS: undefined,
        ticketWaitP50S: percentile(x.waitsS, 50),
        ticketWaitMaxS: percentile(x.waitsS, 100),
        budgets: pumpBudgets(x, limits),
        outboxSms: truth?.pumpSms ?? null,
      })),
      victimLockout: summary(attacks.lockout, (x) => ({
        ...x,
        log: (x.log ?? []).slice(0, 80),
        victim: x.victim ? summariseVictim(x.victim) : null,
        upstreamSendsToVictim: truth?.victimSms ?? null,
      })),
      codeGuessing: summary(attacks.guessing, (x) => ({
        ...x,
        targetsReachedGoal: targets.filter(reachedGoal).length,
        targetsRefused: targets.filter((r) => r.refusals.length > 0).length,
        targetsWhoCame: targets.length,
      })),
      hoarding: summary(attacks.hoarding, (x) => ({
        ...x,
        timeline: (x.timeline ?? []).slice(-60),
        heldAtEndByTheOrganiser: truth?.held ?? null,
      })),
      bypassHarvest: summary(attacks.bypass, (x) => x),
    },
    truthQueryError: truth?.error ?? null,
  };
}

/** An attack's results: null when it did not run, its error when its script failed, else `make(x)`. */
function summary(x, make) {
  if (!x) return null;
  return x.error ? { error: x.error } : make(x);
}

function summariseVictim(rec) {
  return {
    reached: rec.reached,
    gaveUp: rec.gaveUp,
    credentialMs: rec.credentialMs,
    refusals: rec.refusals,
    challenges: rec.challenges,
    organiserRefusals: rec.upstreamRefusals,
    errors: rec.errors,
    startS: rec.startS,
  };
}

/** The printed report. */
export function printReport(res) {
  const out = [];
  const p = (s = '') => out.push(s);
  const v = res.visitors;
  p(
    `\nShow-morning rehearsal: ${res.visitorsPlanned} visitors over ${res.morningS} s (seed ${res.seed}), commit ${res.commit}${res.dirty ? ' + uncommitted changes' : ''}, ${res.date}`,
  );
  p(
    `Product limits: ${Object.keys(res.limitOverrides).length ? `ENVIRONMENT OVERRIDES ${JSON.stringify(res.limitOverrides)}` : 'the defaults of every LIMIT_* (none set)'}; Turnstile not configured (the challenge is the wait ticket).`,
  );
  p(
    `Run: ${res.durationS} s in all, morning ${res.morningWallS} s; load average at the start ${res.machine.loadStart.join(' / ')}, at the end ${res.machine.loadEnd.join(' / ')}.`,
  );
  p(
    '\nReal visitors (reached: pre-registered → credential; walk-in → form or, registering, credential; demo → credential or list; buyer → paid ticket)',
  );
  const row = (name, s) => [
    name,
    s.n,
    `${s.reachedGoal} (${s.n ? Math.round((100 * s.reachedGoal) / s.n) : 0} %)`,
    `${s.credential} / ${s.list} / ${s.form}`,
    `${s.registered} / ${s.paid}`,
    `${s.refusals} (${s.visitorsRefused})`,
    `${s.challenges} (${s.visitorsChallenged})`,
    s.organiserRefusals,
    s.errors,
    s.gaveUp,
    `${s1(s.credentialP50Ms)} / ${s1(s.credentialP95Ms)}`,
    `${s1(s.credentialWaitP50Ms)} / ${s1(s.credentialWaitP95Ms)}`,
  ];
  const header = [
    'actor',
    'n',
    'reached goal',
    'credential / list / form',
    'registered / paid',
    'refusals (visitors)',
    'challenges (visitors)',
    'organiser refusals',
    'errors',
    'gave up',
    'to credential p50 / p95',
    'of it on replies p50 / p95',
  ];
  p(table(header, [...Object.entries(v.byKind).map(([k, s]) => row(k, s)), row('all visitors', v.all)]));
  p('\nBy network (the venue Wi-Fi is one IPv4 address; each carrier NAT one; IPv6 phones a /64 each of one /48)');
  p(
    table(
      header,
      Object.entries(v.byNetwork).map(([k, s]) => row(k, s)),
    ),
  );
  if (Object.keys(v.refusedOrChallengedAt).length) {
    p('\nRefusals and challenges shown to visitors, by step and message key:');
    for (const [k, n] of Object.entries(v.refusedOrChallengedAt)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12))
      p(`  ${String(n).padStart(5)}  ${k}`);
  }
  if (Object.keys(v.gaveUp).length) {
    p('Why visitors gave up:');
    for (const [k, n] of Object.entries(v.gaveUp)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12))
      p(`  ${String(n).padStart(5)}  ${k}`);
  }
  p(
    `Credential views after the first: ${v.credentialViews.views} (${JSON.stringify(v.credentialViews.statuses)}). Day Pass wanted by ${v.dayPass.wanted} buyers: ${v.dayPass.bought} bought one, ${v.dayPass.noneLeft} found none left.`,
  );
  if (res.gates.length) {
    p('\nGates (expo 1308; each gate scans its queue one code after the other)');
    p(
      table(
        ['gate', 'scans', 'results', 'answer p50', 'answer p95', 'queue p50', 'queue p95'],
        res.gates.map((g) => [
          g.gate,
          g.scans,
          Object.entries(g.results)
            .map(([k, n]) => `${k} ${n}`)
            .join(', '),
          msText(g.answerP50Ms),
          msText(g.answerP95Ms),
          s1(g.queueP50Ms),
          s1(g.queueP95Ms),
        ]),
      ),
    );
  }
  if (res.replyTimes?.length) {
    p("\nReply times of the visitors' and staff's requests (from sending to the last byte)");
    p(
      table(
        ['request', 'n', 'p50', 'p95', 'max', 'statuses'],
        res.replyTimes.map((t) => [
          t.kind,
          t.n,
          msText(t.p50Ms),
          msText(t.p95Ms),
          msText(t.maxMs),
          Object.entries(t.statuses)
            .map(([k, n]) => `${k === '0' ? 'no answer' : k}: ${n}`)
            .join(', '),
        ]),
      ),
    );
  }
  const a = res.attacks;
  p(
    res.attacks.smsPumping === null && res.attacks.hoarding === null
      ? '\nAttacks: none (--no-attacks)'
      : '\nAttacks (what each got)',
  );
  if (a.smsPumping?.error) p(`- smsPumping: the attack's script failed: ${a.smsPumping.error}`);
  else if (a.smsPumping) {
    const x = a.smsPumping;
    p(
      `- SMS pumping to +44 (${x.bots} bots, 5 expos): ${x.attempts} sends tried, ${x.sent} SMS sent (${x.sentAfterTicket} after waiting out a ticket; the organiser's outbox holds ${x.outboxSms ?? '?'} to +44), ${x.challenges} challenges (ticket wait p50 ${x.ticketWaitP50S ?? '–'} s, max ${x.ticketWaitMaxS ?? '–'} s), ${x.refused} refused, ${x.errors} errors. Sends with a matured ticket: ${JSON.stringify(x.afterTicket ?? {})}; to the one block (+44 7700 900xxx): ${JSON.stringify(x.byNumbers?.block ?? {})}, spread: ${JSON.stringify(x.byNumbers?.spread ?? {})}.`,
    );
    p(
      table(
        [
          'budget',
          'limit',
          'budget/h',
          'ceiling',
          'ticket share',
          'keys hit',
          'most sent to one key',
          'SMS past the budget',
          'keys past the budget',
        ],
        x.budgets.map((b) => [
          b.what,
          b.name,
          b.budget ?? 'unknown',
          b.ceiling ?? '–',
          b.ticketShare ?? '–',
          b.keys,
          b.top ? `${b.top.sent} (${b.top.key})` : '–',
          b.smsPastBudget ?? '–',
          b.pastBudget ? b.pastBudget.map((k) => `${k.key}: +${k.pastBudget}`).join(', ') || 'none' : '–',
        ]),
      ),
    );
  }
  if (a.victimLockout?.error) p(`- victimLockout: the attack's script failed: ${a.victimLockout.error}`);
  else if (a.victimLockout) {
    const x = a.victimLockout;
    const vic = x.victim;
    p(
      `- Victim lockout (+8613900139000, one address, 3 expos): ${x.attempts} sends tried, ${x.sent} passed to the organiser (its outbox: ${x.upstreamSendsToVictim ? JSON.stringify(x.upstreamSendsToVictim) : '?'}), ${x.challenges} challenges, ${x.refused} refused, ${x.upstream} refused by the organiser.`,
    );
    p(
      vic
        ? `  The victim's own phone (from ${vic.startS?.toFixed(0)} s): ${vic.reached === 'credential' ? `GOT IN, credential in ${s1(vic.credentialMs)}` : `did NOT get in (${vic.gaveUp ?? vic.reached ?? 'no answer'})`}; shown ${vic.refusals.length} refusals, ${vic.challenges.length} challenges, ${vic.organiserRefusals.length} organiser refusals.`
        : '  The victim did not run.',
    );
  }
  if (a.codeGuessing?.error) p(`- codeGuessing: the attack's script failed: ${a.codeGuessing.error}`);
  else if (a.codeGuessing) {
    const x = a.codeGuessing;
    p(
      `- Code guessing (${x.targets} real visitors' contacts, ${x.sends.ok} with a code sent from the guesser's browser first): ${x.guesses} guesses, ${x.reachedUpstream} reached the organiser, ${x.unbound} stopped as "another browser", ${x.refused} refused by a limit; codes found: ${x.harvested}. Targets who came later and reached their goal: ${x.targetsReachedGoal} of ${x.targetsWhoCame} (${x.targetsRefused} shown a refusal).`,
    );
  }
  if (a.hoarding?.error) p(`- hoarding: the attack's script failed: ${a.hoarding.error}`);
  else if (a.hoarding) {
    const x = a.hoarding;
    p(
      `- Hoarding on 1216 (${x.verified} of ${x.contacts} contacts verified): ${x.ordersMade} orders made, ${x.cancels} cancelled and made again; held at the peak: Day Pass ${x.peak[1]} of 8, VIP ${x.peak[3]} of 100; at the end (own tally) Day Pass ${x.end[1]}, VIP ${x.end[3]}${x.heldAtEndByTheOrganiser ? ` (the organiser's orders: ${JSON.stringify(x.heldAtEndByTheOrganiser)})` : ''}. Refused: ${JSON.stringify(x.ordersRefused)}.`,
    );
  }
  if (a.bypassHarvest?.error) p(`- bypassHarvest: the attack's script failed: ${a.bypassHarvest.error}`);
  else if (a.bypassHarvest) {
    const x = a.bypassHarvest;
    const ex = x.exhibitor;
    p(
      `- Bypass harvesting (exhibitor@demo.test on 10542 from ${x.addresses} addresses): ${x.harvested} reached the credential, ${x.askedForCode ?? 0} were asked for a code sent to the e-mail, ${x.refused} refused, other ${JSON.stringify(x.other)}.`,
    );
    p(
      ex
        ? `  The exhibitor's own lookup at the end: ${ex.reached ? `GOT IN${ex.askedForCode ? ' (asked for a code sent to the e-mail, and typed it)' : ''}` : `did NOT get in (${ex.outcome}${ex.detail ? `: ${ex.detail}` : ''})`}.`
        : '  The exhibitor did not run.',
    );
  }
  if (res.truthQueryError) p(`(The organiser's database could not be read after the run: ${res.truthQueryError})`);
  p(
    `\nWritten: ${res.outFile}. It measures; it does not judge: docs/rehearsal.md says how to read it and the ceilings.`,
  );
  return out.join('\n');
}
