import { readdir, readFile, readlink } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALIASES } from '../../../src/cards/aliases.js';
import { CompactRecords } from '../../../src/cards/compact-records.js';
import { CardMatcher, type MatchableCard } from '../../../src/cards/matcher.js';
import { compactCardinfoBody } from '../../../src/services/off-thread/compact-download.js';
import { offThreadJobs } from '../../../src/services/off-thread/off-thread.js';
import { translatedCard, translatedDump } from '../../fakes/card-translations.js';
import { loadCardDump } from '../../helpers/card-dump.js';
import { bundledWorkerJobs } from '../../helpers/off-thread.js';

const dump = loadCardDump().slice(0, 2_000);
const cards: MatchableCard[] = dump.map(({ id, name }, at) => ({ id, name, popularity: at % 7 }));
const french = new Map(dump.flatMap((card) => {
  const translated = translatedCard(card as never, 'fr');
  return translated === undefined ? [] : [[card.id, translated.name] as const];
}));
// The worker from the TypeScript sources, as `npm run dev` starts it (other tests run its bundle).
const { buildMatcherTables, readDownload } = offThreadJobs();
const queries = ['dark magician', 'blue eyes', 'mistical space tyfoon', 'a', 'mst', '46986414', 'magicien'];

describe('matcher builds in a worker thread', () => {
  it('give a matcher answering exactly as one built on the event loop, in English and in French', async () => {
    const tables = await buildMatcherTables(cards, DEFAULT_ALIASES, new Map([['fr', french]]));
    const offThread = new CardMatcher(cards, DEFAULT_ALIASES, { tables });
    const inline = new CardMatcher(cards, DEFAULT_ALIASES, { localizedNames: (language) => (language === 'fr' ? french : []) });
    expect(offThread.entryCount).toBe(inline.entryCount);
    for (const query of queries) {
      expect(offThread.search(query)).toEqual(inline.search(query));
      expect(offThread.search(query, 25, 'fr')).toEqual(inline.search(query, 25, 'fr'));
    }
  });

  it('stop the worker and reject when aborted', async () => {
    const controller = new AbortController();
    const build = buildMatcherTables(cards, DEFAULT_ALIASES, new Map(), controller.signal);
    controller.abort(new Error('closing'));
    await expect(build).rejects.toThrow('closing');
  });

  it('refuse tables built over other cards', async () => {
    const tables = await buildMatcherTables(cards.slice(0, 10), DEFAULT_ALIASES, new Map());
    expect(() => new CardMatcher(cards, DEFAULT_ALIASES, { tables })).toThrow(/"tables"/);
  });
});

describe('downloads read in a worker thread', () => {
  it('give the same records, passcodes and names as read on the event loop (the fallback), English and a language', async () => {
    for (const [kind, data] of [['cards', dump.slice(0, 100)], ['texts', translatedDump(dump.slice(0, 100), 'de')]] as const) {
      const body = Buffer.from(JSON.stringify({ data: [...data, { id: 'not a card' }] }));
      const { body: inlineRecords, ...inline } = compactCardinfoBody(body, kind);
      // The body is moved to the worker, not copied.
      const { body: records, ...offThread } = await readDownload(body, kind);
      // Bytes compared as bytes: toEqual walks a Buffer element by element, for seconds.
      expect(records.equals(inlineRecords)).toBe(true);
      expect(offThread).toEqual(inline);
      expect([offThread.ids.length, offThread.skipped]).toEqual([data.length, 1]);
    }
  });

  it('send each record’s line start with the body, as a scan of the body finds them', async () => {
    const { body, starts } = await readDownload(Buffer.from(JSON.stringify({ data: dump.slice(0, 500) })), 'cards');
    expect(starts).toBeInstanceOf(Uint32Array);
    expect(starts).toEqual(CompactRecords.parse(body, (record): record is object => typeof record === 'object').starts);
    expect(starts.length).toBe(501);
  });

  it('reject a body that is not a card list as a bad response, as on the event loop', async () => {
    await expect(readDownload(Buffer.from('{"data":[{"id":1'), 'texts')).rejects.toMatchObject({ kind: 'bad_response' });
  });
});

/** The niceness of each thread of this process, by thread id (Linux: field 19 of /proc/self/task/<id>/stat). */
async function threadNiceness(): Promise<Map<number, number>> {
  const niceness = new Map<number, number>();
  for (const id of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${id}/stat`, 'utf8').catch(() => null);
    // Thread ended meanwhile.
    if (stat === null) continue;
    // Fields after the command name (which may hold spaces) start at field 3.
    niceness.set(Number(id), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return niceness;
}

describe('the worker thread', () => {
  it.runIf(process.platform === 'linux')('runs at a lower priority than the thread that sends it jobs', async () => {
    const ownId = Number((await readlink('/proc/thread-self')).split('/').pop());
    const before = (await threadNiceness()).get(ownId)!;
    // The worker stays a moment after a job (see IDLE_MS): long enough to be looked at.
    await buildMatcherTables(cards.slice(0, 10), DEFAULT_ALIASES, new Map());
    const niceness = await threadNiceness();
    expect(niceness.get(ownId)).toBe(before);
    expect([...niceness.values()].some((value) => value > before)).toBe(true);
  });

  it.runIf(process.platform === 'linux')('starts ahead of its first job when asked, then takes it', async () => {
    const ownId = Number((await readlink('/proc/thread-self')).split('/').pop());
    const own = (await threadNiceness()).get(ownId)!;
    const nicedThreads = async () => [...(await threadNiceness())].flatMap(([id, value]) => (value > own ? [id] : []));
    const before = new Set(await nicedThreads());
    // Another entry than the other tests' worker (the run's bundle of it): a worker of its own.
    const bundled = bundledWorkerJobs();
    bundled.start();
    while (!(await nicedThreads()).some((id) => !before.has(id))) await setTimeout(10);
    const tables = await bundled.buildMatcherTables(cards.slice(0, 10), DEFAULT_ALIASES, new Map());
    expect(tables.tieRank.length).toBe(10);
  });
});
