/**
 * `npx tsx bench/profile-large.ts [--trace] [--cpu] [--import-only] [--runs=N] [--typed=N] [--copies=N]`: the 51,830-document (or ×N) import of `bench:app` (SciFact ×10 with new
 * ids, local files) and the Explore-ready that follows, timed, with a Chrome trace of every thread (page,
 * workers, browser process) when `--trace` is given. Prints where each thread spent its CPU: the top
 * functions by self time from V8's sampling profiler, and the trace events (IndexedDB, GC, structured
 * clone) that take the most wall time. Serves an existing build (`npx vite build` first).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CDPSession, Page } from 'playwright-core';
import { preview } from 'vite';
import { loadDataset } from '../src/cli/dataset.ts';
import { judgedQueries } from '../src/lib/data/beir.ts';
import { columnsReady } from '../tests/browser/app-page.ts';
import { launch, waitInPage } from '../tests/browser/harness.ts';
import { repoRoot, shared } from '../tests/shared-dir.ts';

const argv = process.argv.slice(2);
const tracing = argv.includes('--trace');
/** `--cpu`: a light trace (no sampling profiler) giving each thread's CPU time, which the machine's load moves less than wall time. */
const cpuOnly = argv.includes('--cpu');
/** `--poll=250`: check for Explore every 250 ms (default 10; waitInPage in tests/browser/harness.ts says why not on every frame). */
const pollArg = argv.find((arg) => arg.startsWith('--poll='))?.slice(7);
const interval = pollArg === undefined ? 10 : Number(pollArg);
const runs = Number(argv.find((arg) => arg.startsWith('--runs='))?.slice(7) ?? '1');
/** `--copies=100`: SciFact ×100 (518,300 documents) instead of ×10. */
const copies = Number(argv.find((arg) => arg.startsWith('--copies='))?.slice(9) ?? '10');
const dir = copies === 10 ? '/tmp/rp-large-collection' : `/tmp/rp-large-collection-x${copies}`;
/** `--builds=dist,.scratch/dist-main`: builds to serve in turn, run by run (A/B on a machine whose load moves). */
const builds = (argv.find((arg) => arg.startsWith('--builds='))?.slice(9) ?? 'dist').split(',');
/**
 * `--typed=20`: then types that many SciFact test queries into Explore and times each from the input to the
 * frame where every column shows its hits' documents (not only their ranks): the documents' lookups read
 * whole stored chunks, and on this collection a query's hits fall in many of them.
 */
const typed = Number(argv.find((arg) => arg.startsWith('--typed='))?.slice(8) ?? '0');
/** `--import-only`: stop after the import (no Explore), to time or trace the import alone. */
const importOnly = argv.includes('--import-only');

async function writeLarge(): Promise<{ corpus: string; queries: string; queryTexts: string[] }> {
  const files = await writeLargeFiles();
  const queryTexts = readFileSync(files.queries, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { text: string }).text);
  return { ...files, queryTexts };
}

async function writeLargeFiles(): Promise<{ corpus: string; queries: string }> {
  const corpus = join(dir, 'corpus.jsonl');
  const queries = join(dir, 'queries.jsonl');
  if (existsSync(corpus) && existsSync(queries)) return { corpus, queries };
  mkdirSync(dir, { recursive: true });
  const collection = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
  writeFileSync(corpus, '');
  for (let copy = 0; copy < copies; copy++) {
    appendFileSync(corpus, collection.docs.map((doc) => JSON.stringify({ _id: copy === 0 ? doc.id : `${doc.id}~${copy}`, title: doc.title, text: doc.text })).join('\n') + '\n');
  }
  writeFileSync(queries, judgedQueries(collection.queries, collection.qrels.get('test')!).map((q) => JSON.stringify({ _id: q.id, text: q.text })).join('\n') + '\n');
  return { corpus, queries };
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event. */
  tdur?: number;
  id?: string;
  args?: { name?: string; data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url?: string; lineNumber: number };
  parent?: number;
}

async function startTrace(cdp: CDPSession): Promise<void> {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: {
      includedCategories: cpuOnly ? ['toplevel', 'devtools.timeline'] : ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing', 'IndexedDB', 'disabled-by-default-v8.gc'],
    },
  });
}

async function stopTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (event) => resolve(event.stream as string)));
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 22 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** CPU time of each busy thread: the thread time of its top-level tasks. */
function threadCpu(events: TraceEvent[]): string {
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const cpu = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.tdur === undefined || !(e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask')) continue;
    const name = `${threadNames.get(`${e.pid}:${e.tid}`) ?? '?'}#${e.tid}`;
    cpu.set(name, (cpu.get(name) ?? 0) + e.tdur);
  }
  return [...cpu].filter(([, us]) => us > 100_000).sort((a, b) => b[1] - a[1]).map(([name, us]) => `${name} ${(us / 1000).toFixed(0)}`).join(', ');
}

function summarize(label: string, events: TraceEvent[]): void {
  if (cpuOnly) {
    console.log(`  ${label} CPU ms: ${threadCpu(events)}`);
    return;
  }
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  // CPU profiles: Profile (id, pid, tid) then ProfileChunk (same id).
  const profiles = new Map<string, { thread: string; nodes: Map<number, ProfileNode>; self: Map<number, number> }>();
  for (const e of events) {
    if (e.name === 'Profile') profiles.set(`${e.pid}:${e.id}`, { thread: `${e.pid}:${e.tid}`, nodes: new Map(), self: new Map() });
  }
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    const profile = profiles.get(`${e.pid}:${e.id}`);
    if (!profile) continue;
    const data = e.args?.data;
    for (const node of data?.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) profile.self.set(samples[i]!, (profile.self.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
  }
  console.log(`\n=== ${label}: CPU by thread (sampled) ===`);
  for (const profile of profiles.values()) {
    const byFunction = new Map<string, number>();
    let total = 0;
    for (const [id, us] of profile.self) {
      const frame = profile.nodes.get(id)?.callFrame;
      const name = frame ? `${frame.functionName || '(anon)'} ${(frame.url ?? '').split('/').pop() ?? ''}:${frame.lineNumber}` : `#${id}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + us);
      if (frame?.functionName !== '(idle)' && frame?.functionName !== '(program)') total += us;
    }
    if (total < 50_000) continue;
    console.log(`-- ${threadNames.get(profile.thread) ?? profile.thread}: ${(total / 1000).toFixed(0)} ms busy`);
    for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`   ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
  }
  console.log(`\n=== ${label}: trace events by wall time (complete events, per thread) ===`);
  const byEvent = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const key = `${(threadNames.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`).padEnd(28)} ${e.name}`;
    byEvent.set(key, (byEvent.get(key) ?? 0) + e.dur);
  }
  for (const [name, us] of [...byEvent].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`   ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
  const marks = events.filter((e) => e.cat.includes('blink.user_timing'));
  if (marks.length > 0) {
    console.log(`\n=== ${label}: user timing ===`);
    for (const e of marks) console.log(`   ${e.ph} ${e.name} ${e.dur !== undefined ? (e.dur / 1000).toFixed(0) + ' ms' : ''}`);
  }
}

/** Median and p95 of the typed queries' times until their hits' documents are shown, as a line's tail. */
async function typedQueriesShown(page: Page, texts: readonly string[]): Promise<string> {
  await page.getByRole('button', { name: 'New query' }).click();
  await columnsReady(page, 3, { timeout: 600_000, interval });
  await page.evaluate('globalThis.__name ??= (fn) => fn');
  const times: number[] = [];
  for (const text of texts) times.push(await page.evaluate(documentsShownMs, text));
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
  return `; ${texts.length} typed queries, documents shown: median ${at(50).toFixed(0)} ms, p95 ${at(95).toFixed(0)} ms (debounce included)`;
}

/** In the page: types `query` and resolves with ms until every column has ranked it and no hit waits for its document. */
function documentsShownMs(query: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const input = document.querySelector<HTMLInputElement>('input[aria-label="Query text"]')!;
    const done = () => {
      const cards = [...document.querySelectorAll<HTMLElement>('article.column')];
      const ranked = cards.length > 0 && cards.every((card) => card.dataset['status'] === 'ready' && card.dataset['ranked'] === query);
      return ranked && [...document.querySelectorAll('article.column .hit .title .muted')].every((title) => title.textContent !== '…');
    };
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status', 'data-ranked'] });
    input.value = query;
    const started = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function main(): Promise<void> {
  const files = await writeLarge();
  const servers = await Promise.all(builds.map((outDir) => preview({ root: repoRoot, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } })));
  try {
    for (let run = 0; run < runs; run++) for (const [b, server] of servers.entries()) {
      const appUrl = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
      const session = await launch({ asUser: true });
      const { page } = session;
      page.on('console', (message) => {
        if (message.text().startsWith('[rp-timing]')) console.log(message.text());
      });
      try {
        await page.addInitScript(() => {
          const seen = new Map<string, string>();
          (window as unknown as { __rpTimeline: string[] }).__rpTimeline = [];
          new MutationObserver(() => {
            for (const job of document.querySelectorAll<HTMLElement>('.tray .job')) {
              const title = job.querySelector('.title')?.textContent ?? '';
              const status = job.dataset['status'] ?? '';
              if (seen.get(title) === status) continue;
              seen.set(title, status);
              (window as unknown as { __rpTimeline: string[] }).__rpTimeline.push(`${performance.now().toFixed(0)} ${status} ${title} ${job.querySelector('.detail')?.textContent?.trim() ?? ''}`);
            }
          }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
        });
        await page.goto(`${appUrl}/?view=datasets`);
        await page.getByRole('heading', { name: 'In this browser' }).waitFor({ timeout: 60_000 });
        const cdp = tracing || cpuOnly ? await session.context.browser()!.newBrowserCDPSession() : undefined;
        await page.getByTestId('pick-files').setInputFiles([files.corpus, files.queries]);
        const importButton = page.getByRole('region', { name: 'Recognised files' }).getByRole('button', { name: 'Import' });
        await importButton.waitFor();
        if (cdp) await startTrace(cdp);
        const started = performance.now();
        await importButton.click();
        await waitInPage(page, () => (document.querySelector<HTMLSelectElement>('#collection-picker')?.value ?? '').startsWith('local/'), null, { timeout: 600_000, interval: 10 });
        const imported = performance.now() - started;
        if (cdp) summarize('import', await stopTrace(cdp));
        if (importOnly) {
          console.log(`${builds[b]} run ${run + 1}: import ${imported.toFixed(0)} ms`);
          continue;
        }
        if (cdp) await startTrace(cdp);
        await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Explore' }).click();
        const opened = performance.now();
        await columnsReady(page, 3, { timeout: 600_000, interval });
        const ready = performance.now() - opened;
        const clickedAt = await page.evaluate(() => performance.now()) - ready;
        const timeline = await page.evaluate(() => (window as unknown as { __rpTimeline: string[] }).__rpTimeline);
        for (const line of timeline) {
          const [at, ...rest] = line.split(' ');
          const since = Number(at) - clickedAt;
          if (since > -1000) console.log(`    ${since.toFixed(0).padStart(7)} ms  ${rest.join(' ')}`);
        }
        if (cdp) summarize('explore', await stopTrace(cdp));
        // `--skip-ready-trace` style: the typed queries get their own trace.
        if (cdp && typed > 0) await startTrace(cdp);
        const shown = typed > 0 ? await typedQueriesShown(page, files.queryTexts.slice(0, typed)) : '';
        if (cdp && typed > 0) summarize('typed', await stopTrace(cdp));
        console.log(`${builds[b]} run ${run + 1}: import ${imported.toFixed(0)} ms, then Explore ready ${ready.toFixed(0)} ms${shown}`);
      } finally {
        await session.close();
      }
    }
  } finally {
    for (const server of servers) await server.close();
  }
}

await main();
