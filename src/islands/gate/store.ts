/**
 * What the gate scanner keeps on the phone, in IndexedDB (one database per expo, `gate-{expoId}`):
 * the admission list's rows (by hash, no code and no name), the list's time, the queue of scans
 * made offline, the double entries and the scans the organiser refused that staff have not
 * dismissed yet. A few lines over the raw API
 * instead of a library: a library under node_modules would land in every page's shared chunk
 * (astro.config.mjs). Where IndexedDB cannot be opened (some private modes), the same store lives
 * in memory for as long as the page is open.
 */
import type { DoubleEntry, LocalRow, RefusedScan } from '../../lib/gate/offline';
import type { GateQueuedScan } from '../../lib/gate/types';

/** The list's facts kept beside its rows. */
export interface ListMeta {
  fetchedAt: string;
  today: string;
  complete: boolean;
  codes: number;
}

export interface GateStore {
  row(hash: string): Promise<LocalRow | null>;
  putRows(rows: readonly LocalRow[]): Promise<void>;
  /** the list replaced whole by a fresh one */
  replaceList(rows: readonly LocalRow[], meta: ListMeta): Promise<void>;
  meta(): Promise<ListMeta | null>;
  queue(): Promise<GateQueuedScan[]>;
  enqueue(scan: GateQueuedScan): Promise<void>;
  dropQueued(scanIds: readonly string[]): Promise<void>;
  doubles(): Promise<DoubleEntry[]>;
  addDoubles(entries: readonly DoubleEntry[]): Promise<void>;
  clearDoubles(): Promise<void>;
  refusals(): Promise<RefusedScan[]>;
  addRefusals(entries: readonly RefusedScan[]): Promise<void>;
  clearRefusals(): Promise<void>;
}

type StoreName = 'rows' | 'queue' | 'doubles' | 'refused' | 'meta';

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function finished(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function openDb(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    // version 2 (issue 30) adds `refused`; every store is made when missing, so a phone with version 1 keeps its queue
    const req = indexedDB.open(name, 2);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains('rows')) db.createObjectStore('rows', { keyPath: 'hash' });
      if (!db.objectStoreNames.contains('queue')) db.createObjectStore('queue', { keyPath: 'scanId' });
      if (!db.objectStoreNames.contains('doubles')) db.createObjectStore('doubles', { keyPath: 'scanId' });
      if (!db.objectStoreNames.contains('refused')) db.createObjectStore('refused', { keyPath: 'scanId' });
      if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error('blocked'));
  });
}

function idbStore(db: IDBDatabase): GateStore {
  const write = async (names: StoreName[], work: (tx: IDBTransaction) => void): Promise<void> => {
    const tx = db.transaction(names, 'readwrite');
    work(tx);
    await finished(tx);
  };
  const all = <T>(name: StoreName) => done(db.transaction(name).objectStore(name).getAll() as IDBRequest<T[]>);
  return {
    async row(hash) {
      return ((await done(db.transaction('rows').objectStore('rows').get(hash))) as LocalRow | undefined) ?? null;
    },
    putRows: (rows) => write(['rows'], (tx) => rows.forEach((r) => tx.objectStore('rows').put(r))),
    replaceList: (rows, meta) =>
      write(['rows', 'meta'], (tx) => {
        const store = tx.objectStore('rows');
        store.clear();
        rows.forEach((r) => store.put(r));
        tx.objectStore('meta').put(meta, 'list');
      }),
    async meta() {
      return ((await done(db.transaction('meta').objectStore('meta').get('list'))) as ListMeta | undefined) ?? null;
    },
    queue: () => all<GateQueuedScan>('queue'),
    enqueue: (scan) => write(['queue'], (tx) => tx.objectStore('queue').put(scan)),
    dropQueued: (ids) => write(['queue'], (tx) => ids.forEach((id) => tx.objectStore('queue').delete(id))),
    doubles: () => all<DoubleEntry>('doubles'),
    addDoubles: (entries) => write(['doubles'], (tx) => entries.forEach((e) => tx.objectStore('doubles').put(e))),
    clearDoubles: () => write(['doubles'], (tx) => tx.objectStore('doubles').clear()),
    refusals: () => all<RefusedScan>('refused'),
    addRefusals: (entries) => write(['refused'], (tx) => entries.forEach((e) => tx.objectStore('refused').put(e))),
    clearRefusals: () => write(['refused'], (tx) => tx.objectStore('refused').clear()),
  };
}

/** The same store in memory (no IndexedDB): it lasts as long as the page. */
export function memoryStore(): GateStore {
  const rows = new Map<string, LocalRow>();
  const queue = new Map<string, GateQueuedScan>();
  const doubles = new Map<string, DoubleEntry>();
  const refused = new Map<string, RefusedScan>();
  let meta: ListMeta | null = null;
  return {
    row: async (hash) => rows.get(hash) ?? null,
    putRows: async (list) => list.forEach((r) => rows.set(r.hash, r)),
    replaceList: async (list, m) => {
      rows.clear();
      list.forEach((r) => rows.set(r.hash, r));
      meta = m;
    },
    meta: async () => meta,
    queue: async () => [...queue.values()],
    enqueue: async (s) => void queue.set(s.scanId, s),
    dropQueued: async (ids) => ids.forEach((id) => queue.delete(id)),
    doubles: async () => [...doubles.values()],
    addDoubles: async (list) => list.forEach((d) => doubles.set(d.scanId, d)),
    clearDoubles: async () => doubles.clear(),
    refusals: async () => [...refused.values()],
    addRefusals: async (list) => list.forEach((r) => refused.set(r.scanId, r)),
    clearRefusals: async () => refused.clear(),
  };
}

/** The expo's store on this phone: IndexedDB, or memory when it cannot be opened. */
export async function openGateStore(expoId: number): Promise<GateStore> {
  try {
    if (typeof indexedDB === 'undefined') return memoryStore();
    return idbStore(await openDb(`gate-${expoId}`));
  } catch {
    return memoryStore();
  }
}
