/**
 * The gate's scanner island (the gate page mounts it above its manual form): the camera, the
 * answer filling the screen with a sound and a vibration, and the offline gate. It keeps the
 * expo's admission list in IndexedDB (refreshed on load and every minute while online), decides
 * from it when the network is gone (src/lib/gate/offline.ts), queues those scans and sends them to
 * `/api/gate/sync` when the network returns; every double entry the server reports stays on
 * screen until staff dismiss it. A status line always says which of the two the gate is doing.
 *
 * It also takes over the page's manual form (`form[action="/api/gate/scan"]`): the typed code
 * goes through the same path as a camera read and gets the same answer. Without JavaScript the
 * form posts itself and the server renders the answer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  SCAN_LOOK,
  batches,
  bump,
  clock,
  decideLocally,
  entryTime,
  isRepeat,
  listHash,
  localAnswer,
  localDay,
  localStamp,
  mergeAnswer,
  newScanId,
  normaliseCode,
  readSync,
  scanDay,
  scanTime,
  withPending,
  type DoubleEntry,
  type LocalRow,
  type RefusedScan,
} from '../lib/gate/offline';
import { GATE_SYNC_MAX, type GateAnswer, type GateList, type GateQueuedScan, type GateSyncRefused, type GateSynced } from '../lib/gate/types';
import { readReply, replyOf, type Envelope, type GateReply, type ReplyRead } from '../lib/gate/reply';
import { interpolate } from '../lib/util/interpolate';
import { frameReader, startCamera, stopCamera, type FrameReader } from './gate/camera';
import { signal, unlockSound } from './gate/feedback';
import { openGateStore, type GateStore, type ListMeta } from './gate/store';
import './gate/gate-scan.css';

export const GATE_SCANNER_STRING_KEYS = [
  'gateScan.title',
  'gateScan.cameraStart',
  'gateScan.cameraStop',
  'gateScan.cameraHint',
  'gateScan.cameraDenied',
  'gateScan.cameraNone',
  'gateScan.statusLoading',
  'gateScan.statusOnline',
  'gateScan.statusWaiting',
  'gateScan.statusWaitingOne',
  'gateScan.statusOffline',
  'gateScan.statusOfflineNoList',
  'gateScan.listIncomplete',
  'gate.wordAdmitted',
  'gate.wordUsed',
  'gate.wordReview',
  'gate.wordVoid',
  'gate.wordOtherDay',
  'gate.wordOtherExpo',
  'gate.wordUnknown',
  'gate.explainAdmitted',
  'gate.explainUsed',
  'gate.explainReview',
  'gate.explainVoid',
  'gate.explainOtherDay',
  'gate.explainOtherExpo',
  'gate.explainUnknown',
  'gateScan.notOnList',
  'gateScan.count',
  'gateScan.unlimited',
  'gateScan.lastEntry',
  'gateScan.offlineDecided',
  'gateScan.tapNext',
  'gateScan.doublesTitle',
  'gateScan.doubleUsed',
  'gateScan.doubleOther',
  'gateScan.doubleEarlier',
  'gateScan.doublesDismiss',
  'gateScan.refused',
  'gateScan.keyGone',
  'gateScan.upstreamFault',
  'gateScan.serverOdd',
  'gateScan.refusedTitle',
  'gateScan.refusedLine',
  'gateScan.refusedDismiss',
  'gate.unsupported',
] as const;

type Key = (typeof GATE_SCANNER_STRING_KEYS)[number];

export interface GateScannerProps {
  /** the route's base64url expo id */
  eid: string;
  expoId: number;
  /** this gate's name, from the staff key */
  gate: string;
  strings: Record<Key, string>;
  /** how often the list is read again while online, ms (default a minute) */
  listEveryMs?: number;
  /** the server render already says the organiser's API lacks the check-in calls (src/lib/screens/gate.ts) */
  unsupported?: boolean;
}


/** How long an online scan may take before the scanner decides offline (the scanId makes a late one harmless). */
const SCAN_TIMEOUT_MS = 4000;
/** Camera frames are read at most this often (ms). */
const FRAME_EVERY_MS = 120;

interface Shown {
  answer: GateAnswer;
  offline: boolean;
}

type Camera = 'off' | 'starting' | 'on' | 'denied' | 'none';

/** A scan's answer as the wire gives it (src/lib/gate/types.ts), not some other reply. */
function isAnswer(data: unknown): data is GateAnswer {
  return typeof data === 'object' && data !== null && Object.hasOwn(SCAN_LOOK, (data as { result?: unknown }).result as string);
}

/**
 * A JSON call to the gate API, its reply read by src/lib/gate/reply.ts `replyOf`: the envelope;
 * `gone` only when the edge answers word for word as for a path that does not exist (its own
 * staff-key table refused the key); the status of any other answer that is not ours; null when
 * nothing came back (decide offline).
 */
async function call<T>(url: string, init: RequestInit = {}, timeoutMs = SCAN_TIMEOUT_MS): Promise<GateReply<T>> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const res = await fetch(url, {
      ...init,
      signal: ctl.signal,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });
    const body: unknown = await res.json().catch(() => null);
    return replyOf<T>(res.status, body, new URL(url, window.location.href).pathname);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export default function GateScanner({ eid, expoId, gate, strings, listEveryMs = 60_000, unsupported: saidByPage = false }: GateScannerProps) {
  const s = useCallback((key: Key, vars?: Record<string, string | number>) => interpolate(strings[key], vars), [strings]);
  const [online, setOnline] = useState<boolean>(true);
  const [meta, setMeta] = useState<ListMeta | null>(null);
  const [loading, setLoading] = useState(true);
  const [waiting, setWaiting] = useState(0);
  const [doubles, setDoubles] = useState<DoubleEntry[]>([]);
  const [refusals, setRefusals] = useState<RefusedScan[]>([]);
  // why the gate decides from its list although the network is up (the organiser's system, or the gate server, did not answer as expected)
  const [why, setWhy] = useState<string | null>(null);
  // Rendered only once hydrated (issue 30): without JavaScript the page shows the manual form and
  // the answer alone, never a list that is "loading" for ever or a camera button that does nothing.
  const [hydrated, setHydrated] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // the organiser's API lacks the check-in calls: learnt from a reply (the page may have said it already)
  const [unsupported, setUnsupported] = useState(false);
  const [camera, setCamera] = useState<Camera>('off');
  const store = useRef<Promise<GateStore> | null>(null);
  const syncing = useRef<Promise<void> | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const reader = useRef<FrameReader | null>(null);
  const lastRead = useRef<{ code: string; at: number } | null>(null);
  const busy = useRef(false);

  const db = useCallback(() => (store.current ??= openGateStore(expoId)), [expoId]);

  const refreshCounts = useCallback(async () => {
    const st = await db();
    setWaiting((await st.queue()).length);
    setDoubles((await st.doubles()).sort((a, b) => a.scannedAt.localeCompare(b.scannedAt)));
    setRefusals((await st.refusals()).sort((a, b) => a.scannedAt.localeCompare(b.scannedAt)));
    setMeta(await st.meta());
  }, [db]);

  /** Merges server answers into the list rows (the server's count wins). */
  const mergeAll = useCallback(
    async (pairs: readonly { code: string; answer: GateAnswer; day: string }[]) => {
      const st = await db();
      const rows: LocalRow[] = [];
      for (const p of pairs) {
        const row = await st.row(await listHash(expoId, p.code));
        if (row) rows.push(mergeAnswer(row, p.answer, p.day));
      }
      if (rows.length) await st.putRows(rows);
    },
    [db, expoId],
  );

  /** Says why the gate decides from its list (null: the network is gone, which the status line says). */
  const offlineBecause = useCallback(
    <T,>(read: Extract<ReplyRead<T>, { kind: 'offline' }>) => {
      setOnline(false);
      const reason = read.reason === null ? null : 'text' in read.reason ? read.reason.text : s(read.reason.key, read.reason.vars);
      setWhy(reason === null ? null : s('gateScan.upstreamFault', { reason }));
    },
    [s],
  );

  /**
   * A reply of sync or the list read (src/lib/gate/reply.ts): no answer, or the organiser's system
   * not answering as expected → the gate works offline, and says why; the key gone (the edge's own
   * staff-key table) → staff are told; the API without the check-in calls → said on load (the list
   * is read on load); else the envelope, for the call to read (null: stop there). A sync's fault
   * still carries the scans answered before it.
   */
  const answered = useCallback(
    <T,>(reply: GateReply<T>): { envelope: Envelope<T>; offline: boolean } | null => {
      const read = readReply(reply);
      if (read.kind === 'offline') {
        offlineBecause(read);
        return read.envelope ? { envelope: read.envelope, offline: true } : null;
      }
      if (read.kind === 'keyGone') setNotice(s('gateScan.keyGone'));
      if (read.kind === 'unsupported') setUnsupported(true);
      if (read.kind !== 'answer') return null;
      setWhy(null);
      return { envelope: read.envelope, offline: false };
    },
    [offlineBecause, s],
  );

  /** Sends the queue in batches; stops at the first failure (the rest stays queued). */
  const sync = useCallback((): Promise<void> => {
    syncing.current ??= (async () => {
      const st = await db();
      try {
        for (const batch of batches(await st.queue(), GATE_SYNC_MAX)) {
          const got = answered(await call<{ results: GateSynced[]; refused?: GateSyncRefused[] }>('/api/gate/sync', { method: 'POST', body: JSON.stringify({ eid, scans: batch }) }, 15_000));
          if (!got) return;
          const reply = got.envelope;
          if (!got.offline) setOnline(true);
          // a fault part-way (the organiser's system failed after some scans) still carries the answered ones;
          // a scan the organiser refused leaves the queue and is listed for staff (issue 30)
          const data = reply.data;
          const out = readSync(batch, Array.isArray(data?.results) ? data.results : [], gate, Array.isArray(data?.refused) ? data.refused : []);
          const list = await st.meta();
          await mergeAll(out.merges.map((m) => ({ code: m.scan.code, answer: m.answer, day: scanDay(list, new Date(m.scan.scannedAt)) })));
          if (out.doubles.length) await st.addDoubles(out.doubles);
          if (out.refused.length) await st.addRefusals(out.refused);
          await st.dropQueued([...out.answered, ...out.refused.map((r) => r.scanId)]);
          if (got.offline) return;
          if (reply.code !== 200) {
            setNotice(s('gateScan.refused', { msg: reply.msg ?? String(reply.code) }));
            return;
          }
          if (out.answered.length + out.refused.length < batch.length) return;
        }
      } finally {
        syncing.current = null;
        await refreshCounts();
      }
    })();
    return syncing.current;
  }, [answered, db, eid, gate, mergeAll, refreshCounts, s]);

  /** Sends what waits, then reads the list again (scans still waiting are counted into it). */
  const refresh = useCallback(async () => {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setOnline(false);
      setLoading(false);
      return;
    }
    await sync();
    const got = answered(await call<GateList>(`/api/gate/list?eid=${encodeURIComponent(eid)}`, {}, 30_000));
    setLoading(false);
    if (!got || got.offline) return;
    const reply = got.envelope;
    if (reply.code !== 200 || !reply.data) {
      if (reply.msg) setNotice(s('gateScan.refused', { msg: reply.msg }));
      return;
    }
    setOnline(true);
    const list = reply.data;
    const st = await db();
    const pending = new Map<string, { scannedAt: string; gate: string }[]>();
    for (const q of await st.queue()) {
      if (q.local !== 'admitted') continue;
      const h = await listHash(expoId, q.code);
      pending.set(h, [...(pending.get(h) ?? []), { scannedAt: q.scannedAt, gate }]);
    }
    const dayOf = (at: Date) => scanDay(list, at);
    const rows = list.rows.map((r) => (pending.has(r.hash) ? withPending(r, pending.get(r.hash) ?? [], dayOf) : r));
    await st.replaceList(rows, { fetchedAt: list.fetchedAt, today: list.today, complete: list.complete, codes: list.rows.length });
    await refreshCounts();
    // a list read means the network is back: anything queued meanwhile goes now
    if ((await st.queue()).length) await sync();
  }, [answered, db, eid, expoId, gate, refreshCounts, s, sync]);

  /** Decides from the list on the phone and queues the scan. */
  const decideOffline = useCallback(
    async (code: string, scanId: string, scannedAt: string): Promise<GateAnswer> => {
      const st = await db();
      const hash = await listHash(expoId, code);
      const row = await st.row(hash);
      const at = new Date(scannedAt);
      const day = scanDay(await st.meta(), at);
      const decision = decideLocally(row, day);
      if (row && decision.result === 'admitted') await st.putRows([bump(row, day, { at: localStamp(at), gate })]);
      const queued: GateQueuedScan = { scanId, code, scannedAt, local: decision.result };
      await st.enqueue(queued);
      await refreshCounts();
      return localAnswer(code, decision, row, gate, scannedAt);
    },
    [db, expoId, gate, refreshCounts],
  );

  const show = useCallback((answer: GateAnswer, offline: boolean) => {
    setShown({ answer, offline });
    signal(SCAN_LOOK[answer.result].tone);
  }, []);

  /** One scan, from the camera or the form: online when it can be, else from the list. */
  const scan = useCallback(
    async (text: string) => {
      const code = normaliseCode(text);
      const scannedAt = new Date().toISOString();
      if (!code) {
        show({ result: 'unknown', code: text.trim().slice(0, 64), name: null, classLabel: null, ticketName: null, usedCount: null, maxCount: null, lastEntry: null, gate, scannedAt }, false);
        return;
      }
      const scanId = newScanId();
      setNotice(null);
      if (navigator.onLine !== false) {
        const read = readReply(await call<GateAnswer>('/api/gate/scan', { method: 'POST', body: JSON.stringify({ eid, code, scannedAt, scanId }) }));
        if (read.kind === 'keyGone') {
          // the edge's own staff-key table refused the key: no answer from an old list either
          setNotice(s('gateScan.keyGone'));
          return;
        }
        if (read.kind === 'unsupported') {
          setUnsupported(true);
          return;
        }
        if (read.kind === 'answer' && read.envelope.code === 200 && isAnswer(read.envelope.data)) {
          const answer = read.envelope.data;
          setOnline(true);
          setWhy(null);
          show(answer, false);
          await mergeAll([{ code, answer, day: scanDay(await (await db()).meta(), new Date(scannedAt)) }]);
          if ((await (await db()).queue()).length) void sync();
          return;
        }
        if (read.kind === 'answer') {
          // the organiser refused this scan's input (e.g. the phone's clock): said, not decided
          setNotice(s('gateScan.refused', { msg: read.envelope.msg ?? String(read.envelope.code) }));
          return;
        }
        // no answer, or the organiser's system did not answer as expected: the list decides, and the reason is said
        offlineBecause(read);
      } else setOnline(false);
      show(await decideOffline(code, scanId, scannedAt), true);
    },
    [db, decideOffline, eid, gate, mergeAll, s, show, sync],
  );

  // the list on load, every minute while online, and a sync when the network returns
  useEffect(() => {
    void refreshCounts().then(refresh);
    const timer = setInterval(() => void refresh(), listEveryMs);
    const back = () => void refresh();
    const gone = () => setOnline(false);
    window.addEventListener('online', back);
    window.addEventListener('offline', gone);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', back);
      window.removeEventListener('offline', gone);
    };
  }, [listEveryMs, refresh, refreshCounts]);

  // Offline, the page cannot be opened again (it is not kept by the service worker: staff-only and
  // no-store), so leaving or reloading it asks first; the list and the queue stay in IndexedDB.
  useEffect(() => {
    if (online) return;
    const stay = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', stay);
    return () => window.removeEventListener('beforeunload', stay);
  }, [online]);

  // the page's manual form: the typed code goes the same way as a camera read
  useEffect(() => {
    const form = document.querySelector<HTMLFormElement>('form[action="/api/gate/scan"]');
    if (!form) return;
    const onSubmit = (e: SubmitEvent) => {
      const field = form.elements.namedItem('code');
      if (!(field instanceof HTMLInputElement)) return;
      e.preventDefault();
      unlockSound();
      const text = field.value;
      field.value = '';
      if (text.trim() === '') return field.focus();
      void scan(text).finally(() => field.focus());
    };
    form.addEventListener('submit', onSubmit);
    form.dataset['enhanced'] = 'gate';
    return () => form.removeEventListener('submit', onSubmit);
  }, [scan]);

  // the camera loop: one frame at a time, the same code within 3 s ignored
  useEffect(() => {
    if (camera !== 'on') return;
    let stopped = false;
    const tick = async () => {
      if (stopped) return;
      const v = video.current;
      const r = reader.current;
      if (v && r && !busy.current && v.readyState >= 2) {
        busy.current = true;
        try {
          const text = await r.read(v);
          const code = text === null ? null : (normaliseCode(text) ?? text);
          if (code !== null) {
            const now = Date.now();
            const repeat = isRepeat(lastRead.current, code, now);
            lastRead.current = { code, at: now };
            if (!repeat) await scan(text ?? code);
          }
        } catch {
          // a frame that cannot be read is skipped
        } finally {
          busy.current = false;
        }
      }
      if (!stopped) setTimeout(() => void tick(), FRAME_EVERY_MS);
    };
    void tick();
    return () => {
      stopped = true;
    };
  }, [camera, scan]);

  // While the camera runs the screen stays on (a gate phone that dims between people is a gate that
  // stops); taken again when the page comes back to the front, released with the camera.
  useEffect(() => {
    if (camera !== 'on') return;
    const wake = (navigator as { wakeLock?: { request(type: 'screen'): Promise<{ release(): Promise<void> }> } }).wakeLock;
    if (!wake) return;
    let lock: { release(): Promise<void> } | null = null;
    let ended = false;
    const take = () => {
      if (document.visibilityState !== 'visible') return;
      wake.request('screen').then(
        (l) => (ended ? void l.release() : (lock = l)),
        () => undefined,
      );
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      ended = true;
      document.removeEventListener('visibilitychange', take);
      void lock?.release().catch(() => undefined);
    };
  }, [camera]);

  useEffect(
    () => () => {
      stopCamera(stream.current, video.current);
      reader.current?.close();
    },
    [],
  );

  const onCamera = async () => {
    unlockSound();
    if (camera === 'on' || camera === 'starting') {
      stopCamera(stream.current, video.current);
      stream.current = null;
      setCamera('off');
      return;
    }
    if (!video.current) return;
    setCamera('starting');
    reader.current ??= await frameReader();
    if (!reader.current) return setCamera('none');
    const started = await startCamera(video.current);
    if (typeof started === 'string') return setCamera(started);
    stream.current = started;
    setCamera('on');
  };

  const dismiss = () => {
    setShown(null);
    document.querySelector<HTMLInputElement>('form[action="/api/gate/scan"] input[name="code"]')?.focus();
  };

  const clearDoubles = async () => {
    await (await db()).clearDoubles();
    setDoubles([]);
  };

  const clearRefusals = async () => {
    await (await db()).clearRefusals();
    setRefusals([]);
  };

  useEffect(() => setHydrated(true), []);

  const day = scanDay(meta, new Date());
  const listTime = meta ? clock(meta.fetchedAt) : '';
  const waitingText = waiting === 1 ? s('gateScan.statusWaitingOne') : waiting > 1 ? s('gateScan.statusWaiting', { waiting }) : '';
  const statusText = loading && !meta
    ? s('gateScan.statusLoading')
    : online
      ? [meta ? s('gateScan.statusOnline', { n: meta.codes.toLocaleString(), time: listTime }) : s('gateScan.statusLoading'), waitingText].filter(Boolean).join('; ')
      : [meta ? s('gateScan.statusOffline', { time: listTime }) : s('gateScan.statusOfflineNoList'), waitingText].filter(Boolean).join('; ');

  const answer = shown?.answer;
  const tone = answer ? SCAN_LOOK[answer.result].tone : null;
  // used of maximum in words, and as figures ("1 / 1", the server-rendered answer's data-count)
  const max = answer?.maxCount === 0 ? s('gateScan.unlimited') : (answer?.maxCount ?? '?');
  const count =
    answer && (answer.usedCount !== null || answer.maxCount !== null)
      ? { text: s('gateScan.count', { used: answer.usedCount ?? 0, max }), figures: `${answer.usedCount ?? 0} / ${max}` }
      : null;

  if (!hydrated) return null;

  return (
    <section className="gate-scan" aria-label={s('gateScan.title')} data-online={online ? 'yes' : 'no'} data-waiting={waiting}>
      <p className={`gate-scan__status ${online ? 'is-online' : 'is-offline'}`} role="status" data-gate-status>
        {statusText}
      </p>
      {meta && !meta.complete && <p className="gate-scan__warn">{s('gateScan.listIncomplete')}</p>}
      {unsupported && !saidByPage && (
        <p className="gate-scan__warn" role="alert" data-unsupported>
          {s('gate.unsupported')}
        </p>
      )}
      {why && !online && (
        <p className="gate-scan__warn" role="alert" data-gate-why>
          {why}
        </p>
      )}
      {notice && (
        <p className="gate-scan__warn" role="alert">
          {notice}
        </p>
      )}
      {refusals.length > 0 && (
        <div className="gate-scan__doubles" role="alert" data-gate-refused>
          <h2>{s('gateScan.refusedTitle')}</h2>
          <ul>
            {refusals.map((r) => (
              <li key={r.scanId} data-refused={r.code}>
                {s('gateScan.refusedLine', { code: r.code, time: scanTime(r.scannedAt, localDay(new Date())), msg: r.msg })}
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => void clearRefusals()}>
            {s('gateScan.refusedDismiss')}
          </button>
        </div>
      )}
      {doubles.length > 0 && (
        <div className="gate-scan__doubles" role="alert" data-gate-doubles>
          <h2>{s('gateScan.doublesTitle')}</h2>
          <ul>
            {doubles.map((d) => {
              const vars = { code: d.code, time: clock(d.scannedAt), gate: d.gate || gate };
              const line =
                d.server === 'used'
                  ? s('gateScan.doubleUsed', { ...vars, used: d.usedCount ?? '?', max: d.maxCount === 0 ? s('gateScan.unlimited') : (d.maxCount ?? '?') })
                  : s('gateScan.doubleOther', { ...vars, result: s(SCAN_LOOK[d.server].word) });
              const earlier = d.lastEntry ? s('gateScan.doubleEarlier', { time: entryTime(d.lastEntry.at, day), gate: d.lastEntry.gate }) : '';
              return (
                <li key={d.scanId} data-double={d.code}>
                  {line}
                  {earlier && ` (${earlier})`}
                </li>
              );
            })}
          </ul>
          <button type="button" onClick={() => void clearDoubles()}>
            {s('gateScan.doublesDismiss')}
          </button>
        </div>
      )}
      <div className="gate-scan__camera" hidden={camera !== 'on' && camera !== 'starting'}>
        <video ref={video} muted playsInline aria-label={s('gateScan.cameraHint')} />
        <span className="gate-scan__frame" aria-hidden="true" />
        <p>{s('gateScan.cameraHint')}</p>
      </div>
      {camera === 'denied' && <p className="gate-scan__warn">{s('gateScan.cameraDenied')}</p>}
      {camera === 'none' && <p className="gate-scan__warn">{s('gateScan.cameraNone')}</p>}
      <button type="button" className="gate-scan__camera-button" onClick={() => void onCamera()} aria-pressed={camera === 'on'}>
        {camera === 'on' || camera === 'starting' ? s('gateScan.cameraStop') : s('gateScan.cameraStart')}
      </button>
      {answer && tone && (
        <div
          className={`gate-scan__answer is-${tone}`}
          role="alert"
          data-gate-answer={answer.result}
          data-result={answer.result}
          data-tone={tone}
          data-offline={shown.offline ? 'yes' : 'no'}
          onClick={dismiss}
          onKeyDown={(e) => (e.key === 'Escape' || e.key === 'Enter' ? dismiss() : undefined)}
          tabIndex={-1}
        >
          <p className="gate-scan__word">{s(SCAN_LOOK[answer.result].word)}</p>
          <p className="gate-scan__line">{s(SCAN_LOOK[answer.result].explain)}</p>
          {answer.result === 'unknown' && shown.offline && <p className="gate-scan__line">{s('gateScan.notOnList')}</p>}
          {answer.name && (
            <p className="gate-scan__name" data-name>
              {answer.name}
            </p>
          )}
          {answer.classLabel && <p className="gate-scan__line">{answer.classLabel}</p>}
          {count && (
            <p className="gate-scan__line" data-count={count.figures}>
              {count.text}
            </p>
          )}
          {answer.result === 'used' && answer.lastEntry && (
            <p className="gate-scan__line" data-last-entry={answer.lastEntry.at}>
              {s('gateScan.lastEntry', { time: entryTime(answer.lastEntry.at, day), gate: answer.lastEntry.gate })}
            </p>
          )}
          <p className="gate-scan__code">{answer.code}</p>
          {shown.offline && <p className="gate-scan__small">{s('gateScan.offlineDecided')}</p>}
          <p className="gate-scan__small">{s('gateScan.tapNext')}</p>
        </div>
      )}
    </section>
  );
}
