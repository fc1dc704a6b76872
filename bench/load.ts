import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p99: number;
  errors: number;
}

/** A bounded load on a loopback URL: fixed duration and connections, never another host. */
export async function load(
  url: string,
  options: { headers?: Record<string, string>; seconds?: number; connections?: number } = {},
): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('benchmarks only target loopback');
  const result = await autocannon({
    url,
    headers: options.headers,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 5,
    pipelining: 1,
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export const report = (name: string, r: LoadResult, baseline?: LoadResult) =>
  console.log(
    `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s  p99 ${String(r.p99).padStart(4)} ms` +
      (baseline ? `  ratio ${(r.rps / baseline.rps).toFixed(2)}×` : '') +
      (r.errors ? `  (${r.errors} errors)` : ''),
  );
