/**
 * The benchmark log (bench/LOG.md): every run of `npm run bench` adds an entry at its end with the
 * date, the commit, the machine's load and the figures exactly as the run printed them, so a
 * figure quoted anywhere can be traced to the run that produced it and its conditions.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { format } from 'node:util';

export const DEFAULT_LOG = new URL('./LOG.md', import.meta.url);

export interface BenchEntry {
  date: Date;
  commit: string;
  command: string;
  load: { before: number; after: number; cores: number };
  lines: string[];
}

/** The log file a run writes to: `BENCH_LOG=off` writes none, `BENCH_LOG=<file>` another file. */
export function logTarget(env: Record<string, string | undefined> = process.env): string | URL | null {
  const chosen = env.BENCH_LOG;
  if (chosen === 'off') return null;
  return chosen ? chosen : DEFAULT_LOG;
}

/** The command as typed, with the BENCH_ settings that change what a run measures (not where it logs). */
export function commandLine(argv: string[], env: Record<string, string | undefined> = process.env): string {
  const settings = Object.keys(env)
    .filter((name) => name.startsWith('BENCH_') && name !== 'BENCH_LOG')
    .sort()
    .map((name) => `${name}=${env[name]} `)
    .join('');
  return `${settings}node bench/run.ts${argv.map((arg) => ` ${arg}`).join('')}`;
}

/** The checked-out commit, marked when the tree has uncommitted changes: those figures are not the commit's. */
export function currentCommit(cwd = new URL('..', import.meta.url)): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain') ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/** One entry in the log's format: a heading with the date, the conditions, then the run's own output. */
export function logEntry(entry: BenchEntry): string {
  const when = `${entry.date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const load = `load average ${entry.load.before.toFixed(2)} before, ${entry.load.after.toFixed(2)} after on ${entry.load.cores} cores`;
  // A line of the output that opened a fence of its own would end the block early.
  const lines = entry.lines.map((line) => line.replace(/^```/, '\\`\\`\\`'));
  return [
    `## ${when}: ${entry.command} (${entry.commit})`,
    '',
    `Commands and load: \`${entry.command}\` on commit ${entry.commit}, ${load}. Written by bench/run.ts.`,
    '',
    '```text',
    ...lines,
    '```',
    '',
  ].join('\n');
}

/** Adds the entry at the end of the log, after a blank line, leaving every earlier entry as it was. */
export function appendToLog(target: string | URL, entry: BenchEntry): void {
  appendFileSync(target, `\n${logEntry(entry)}`);
}

/** Keeps a copy of every line printed with console.log until stopped, and still prints it. */
export function recordConsole(): { lines: string[]; stop: () => void } {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => {
    original(...args);
    lines.push(...format(...args).split('\n'));
  };
  return {
    lines,
    stop: () => {
      console.log = original;
    },
  };
}
