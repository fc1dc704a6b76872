import { open } from 'node:fs/promises';

export interface LogLine {
  /** Unix seconds. */
  ts: number;
  level: string;
  message: string;
}

const LINE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) \[(\w+)\] \d+#\d+: (?:\*\d+ )?(.*)$/;

/** One nginx error-log line (`2024/05/01 10:00:00 [error] 12#12: *3 message`), or null. */
export function parseErrorLine(line: string): LogLine | null {
  const m = LINE.exec(line);
  if (!m) return null;
  // nginx writes local time.
  const ts = new Date(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!).getTime() / 1000;
  return { ts, level: m[7]!, message: m[8]!.slice(0, 2000) };
}

/**
 * The last `limit` entries of an error log, newest first. Only the file's tail is read (at most
 * `maxBytes`), so a log of gigabytes costs the same as a small one; a missing log is empty.
 */
export async function tailErrorLog(file: string, limit: number, maxBytes = 256 * 1024): Promise<LogLine[]> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    if (length < size) lines.shift(); // the first line is probably cut
    const out: LogLine[] = [];
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      const entry = parseErrorLine(lines[i]!);
      if (entry) out.push(entry);
    }
    return out;
  } finally {
    await handle.close();
  }
}
