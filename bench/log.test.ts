import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendToLog, type BenchEntry, commandLine, DEFAULT_LOG, logEntry, logTarget, recordConsole } from './log.ts';

const entry = (lines: string[], date = '2026-11-27T21:04:30Z'): BenchEntry => ({
  date: new Date(date),
  commit: 'abc1234',
  command: 'node bench/run.ts --calls',
  load: { before: 1.234, after: 2.5, cores: 2 },
  lines,
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratchLog(content: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-log-'));
  dirs.push(dir);
  const file = path.join(dir, 'LOG.md');
  writeFileSync(file, content);
  return file;
}

describe('the benchmark log', () => {
  it('heads an entry with its date to the minute in UTC, the command and the commit', () => {
    expect(logEntry(entry([])).split('\n')[0]).toBe('## 2026-11-27 21:04 UTC: node bench/run.ts --calls (abc1234)');
  });

  it('states the load average before and after and the number of cores', () => {
    expect(logEntry(entry([]))).toContain('load average 1.23 before, 2.50 after on 2 cores');
  });

  it('keeps every printed line as printed, p50, p99 and ratio included, inside one text block', () => {
    const printed = ['config/get   41,210 req/s  p50 1 ms  p99 4 ms  0.70× of bare', '  budget ≥ 0.6×: met'];
    const text = logEntry(entry(printed));
    expect(text).toContain(['```text', ...printed, '```'].join('\n'));
  });

  it('escapes a printed line that would close the text block early', () => {
    const text = logEntry(entry(['```', 'after']));
    expect(text.match(/^```/gm)).toEqual(['```', '```']);
    expect(text).toContain('after');
  });

  it('appends a run at the end of the file and leaves the earlier entries untouched', () => {
    const earlier = '# Benchmark log\n\n## 2026-11-26 18:07 UTC: an earlier run\n\nfigures\n';
    const file = scratchLog(earlier);
    appendToLog(file, entry(['first']));
    appendToLog(file, entry(['second'], '2026-11-27T22:00:00Z'));
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(earlier)).toBe(true);
    expect(after.indexOf('2026-11-27 21:04 UTC')).toBeGreaterThan(earlier.length);
    expect(after.indexOf('2026-11-27 22:00 UTC')).toBeGreaterThan(after.indexOf('first'));
  });

  it('writes to bench/LOG.md unless BENCH_LOG names another file or is off', () => {
    expect(logTarget({})).toBe(DEFAULT_LOG);
    expect(DEFAULT_LOG.pathname.endsWith('/bench/LOG.md')).toBe(true);
    expect(logTarget({ BENCH_LOG: '/tmp/other.md' })).toBe('/tmp/other.md');
    expect(logTarget({ BENCH_LOG: 'off' })).toBeNull();
  });

  it('names the command with the BENCH_ settings that change what was measured', () => {
    const env = { BENCH_SECONDS: '4', BENCH_LOG: 'off', HOME: '/root', BENCH_ROUNDS: '5' };
    expect(commandLine(['--calls'], env)).toBe('BENCH_ROUNDS=5 BENCH_SECONDS=4 node bench/run.ts --calls');
    expect(commandLine([], {})).toBe('node bench/run.ts');
  });

  it('records what console.log prints, line by line, until stopped', () => {
    const original = console.log;
    const recording = recordConsole();
    try {
      console.log('bare %d req/s', 50000);
      console.log('two\nlines');
    } finally {
      recording.stop();
    }
    console.log('not recorded');
    expect(recording.lines).toEqual(['bare 50000 req/s', 'two', 'lines']);
    expect(console.log).toBe(original);
  });
});
