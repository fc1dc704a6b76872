/**
 * What a process's memory is made of, read from outside (bench/soak.ts, decision 065): the kernel's
 * view (/proc/<pid>/smaps_rollup: anonymous against file-backed) and, when the process was started
 * with `--inspect=127.0.0.1:<port>`, Node's own (`process.memoryUsage()` through the inspector).
 * Their difference tells which allocator holds what the RSS gained: V8's heap, Buffers, or malloc.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface MemorySample {
  seconds: number;
  rssMb: number;
  anonMb: number;
  fileMb: number;
  /** process.memoryUsage() in MB, when an inspector port was given. */
  node?: {
    heapTotal: number;
    heapUsed: number;
    external: number;
    arrayBuffers: number;
    physical: number;
    malloced: number;
    peakMalloced: number;
  };
}

const mb = (kb: number) => kb / 1024;

/** Anonymous and file-backed resident memory, from smaps_rollup. */
export function rollup(pid: number) {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { rssMb: mb(field('Rss')), anonMb: mb(field('Anonymous')), fileMb: mb(field('Rss') - field('Anonymous')) };
}

/** Sends one command to the inspected process (Chrome DevTools protocol over the inspector's WebSocket) and returns its result. */
async function inspect(port: number, method: string, params: object = {}): Promise<unknown> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  try {
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    const answer = new Promise<string>((resolve, reject) => {
      socket.onmessage = (event) => resolve(String(event.data));
      socket.onerror = reject;
    });
    socket.send(JSON.stringify({ id: 1, method, params }));
    return (JSON.parse(await answer) as { result: unknown }).result;
  } finally {
    socket.close();
  }
}

/** Evaluated in the server: its memoryUsage() and V8's own counts (the heap's resident pages, what V8 took from malloc), in MB. */
const NODE_MEMORY = `(() => {
  const v8 = process.getBuiltinModule('node:v8').getHeapStatistics();
  const m = { ...process.memoryUsage(), physical: v8.total_physical_size, malloced: v8.malloced_memory, peakMalloced: v8.peak_malloced_memory };
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v / 1048576]));
})()`;

/** Samples a process's memory every `everySeconds` until stopped; `sample()` reads one now. */
export function memoryProbe(pid: number, inspectPort?: number, everySeconds = 10) {
  const started = Date.now();
  const samples: MemorySample[] = [];
  const sample = async (): Promise<MemorySample> => {
    const node = inspectPort
      ? (
          (await inspect(inspectPort, 'Runtime.evaluate', { expression: NODE_MEMORY, returnByValue: true })) as {
            result: { value: MemorySample['node'] };
          }
        ).result.value
      : undefined;
    const taken = { seconds: Math.round((Date.now() - started) / 1000), ...rollup(pid), node };
    samples.push(taken);
    return taken;
  };
  const timer = setInterval(() => void sample().catch(() => {}), everySeconds * 1000);
  return {
    samples,
    sample,
    stop: () => clearInterval(timer),
    /** The inspector's garbage collection: V8's low-memory one, which also gives back the pages it pooled. */
    lowMemoryGc: async () => {
      if (inspectPort) await inspect(inspectPort, 'HeapProfiler.collectGarbage');
    },
    /** A copy of /proc/<pid>/smaps in `dir`, to diff the mappings of two moments. */
    // Read, not copied: /proc files have a size of 0, which copyFile takes at its word.
    smaps: (dir: string, name: string) => writeFileSync(path.join(dir, `smaps-${name}.txt`), readFileSync(`/proc/${pid}/smaps`)),
  };
}

export const sampleLine = (s: MemorySample) =>
  `  ${String(s.seconds).padStart(4)} s  RSS ${s.rssMb.toFixed(0).padStart(4)} MB (anon ${s.anonMb.toFixed(0)}, file ${s.fileMb.toFixed(0)})` +
  (s.node
    ? `  heap ${s.node.heapUsed.toFixed(0)}/${s.node.heapTotal.toFixed(0)} MB (resident ${s.node.physical.toFixed(0)}), external ${s.node.external.toFixed(0)}, arrayBuffers ${s.node.arrayBuffers.toFixed(0)}, V8 malloc ${s.node.malloced.toFixed(0)} (peak ${s.node.peakMalloced.toFixed(0)})`
    : '');
