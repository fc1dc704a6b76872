/**
 * The data of bench/backups.ts, made quickly and alike in every run: a web root of many files, a
 * Maildir of messages and a database of rows, all of random bytes (restic's deduplication and
 * compression find nothing to save, as with customers' photos and archives), from a seed: AES-CTR's
 * keystream under a key made from the seed, one counter block per file or row.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export const MB = 1024 * 1024;
const SEED = process.env.BENCH_BACKUP_SEED ?? 'atalaya-bench-backups';
const key = createHash('sha256').update(SEED).digest();

/** `size` random bytes, always the same for the same (stream, index, generation). */
export function bytesOf(stream: string, index: number, generation: number, size: number): Buffer {
  const iv = createHash('md5').update(`${stream}:${index}:${generation}`).digest();
  return createCipheriv('aes-256-ctr', key, iv).update(Buffer.alloc(size));
}

/** The sizes of `count` items that add up to `total`: each between half and one and a half of the mean. */
function sizesOf(stream: string, count: number, total: number): number[] {
  const noise = bytesOf(`${stream}-sizes`, 0, 0, count * 4);
  const weights = Array.from({ length: count }, (_, i) => 0.5 + noise.readUInt32LE(i * 4) / 2 ** 32);
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.max(1, Math.round((w / sum) * total)));
}

/** Runs `work` over 0…count-1, `width` at a time. */
async function pool(count: number, width: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** A web root of `files` files in 100 folders (`dNN/fNNNNN.bin`), `bytes` in all. */
export function webData(root: string, files: number, bytes: number) {
  const sizes = sizesOf('web', files, bytes);
  const name = (i: number) => `d${String(i % 100).padStart(2, '0')}/f${String(i).padStart(5, '0')}.bin`;
  const write = (i: number, generation: number) => writeFile(path.join(root, name(i)), bytesOf('web', i, generation, sizes[i]!));
  return {
    files,
    name,
    async create() {
      for (let d = 0; d < Math.min(100, files); d++) mkdirSync(path.join(root, `d${String(d).padStart(2, '0')}`), { recursive: true });
      await pool(files, 8, (i) => write(i, 0));
    },
    /** Rewrites one file in a hundred (the round-th of each hundred), same sizes, new bytes. */
    async change(round: number) {
      const changed = Array.from({ length: Math.ceil(files / 100) }, (_, k) => k * 100 + (round % 100)).filter((i) => i < files);
      await pool(changed.length, 8, (k) => write(changed[k]!, round + 1));
      return changed.length;
    },
  };
}

/** One message as delivered: headers and a base64 attachment of random bytes, about `size` bytes. */
function message(index: number, generation: number, size: number) {
  const raw = bytesOf('mail', index, generation, Math.floor((size * 3) / 4)).toString('base64');
  const lines = raw.match(/.{1,76}/g) ?? [];
  return [
    `From: sender${index % 50}@example.net`,
    'To: buzon@backups.bench.test',
    `Subject: message ${index}.${generation}`,
    `Message-ID: <${index}.${generation}@bench.example.net>`,
    'MIME-Version: 1.0',
    'Content-Type: application/octet-stream',
    'Content-Transfer-Encoding: base64',
    '',
    ...lines,
    '',
  ].join('\r\n');
}

/** A Maildir of `count` messages in `cur/`, `bytes` in all; a change delivers one in a hundred more to `new/`. */
export function mailData(maildir: string, count: number, bytes: number) {
  const sizes = sizesOf('mail', count, bytes);
  const file = (folder: 'cur' | 'new', i: number, generation: number) =>
    path.join(maildir, folder, `1700000000.M${i}P${generation}.bench${folder === 'cur' ? ':2,S' : ''}`);
  return {
    count,
    async create() {
      for (const folder of ['cur', 'new', 'tmp']) mkdirSync(path.join(maildir, folder), { recursive: true });
      await pool(count, 8, (i) => writeFile(file('cur', i, 0), message(i, 0, sizes[i]!)));
    },
    async change(round: number) {
      const added = Math.ceil(count / 100);
      await pool(added, 8, (k) => writeFile(file('new', count + k, round + 1), message(count + k, round + 1, sizes[k % count]!)));
      return added;
    },
  };
}

const ROW_BYTES = 64 * 1024;

/** The `mariadb` client on the bench's server as root (no password, as on this machine), fed SQL on stdin. */
async function sql(database: string, statements: (write: (text: string) => Promise<void>) => Promise<void>) {
  const child: ChildProcess = spawn('mariadb', ['--no-defaults', '--host=127.0.0.1', '--port=3306', '--user=root', database], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'close');
  // A client that stopped reading (an SQL error) reports it by its exit, below.
  let broken = false;
  child.stdin!.on('error', () => {
    broken = true;
  });
  const write = async (text: string) => {
    if (broken) return;
    if (!child.stdin!.write(text)) await drained(child.stdin!);
  };
  await statements(write);
  child.stdin!.end();
  const [code] = await exited;
  if (code !== 0) throw new Error(`mariadb ${database}: ${stderr.trim()}`);
}

/** The stream has room again, or broke (its exit says why). */
const drained = (stream: NodeJS.WritableStream) =>
  new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done).off('error', done);
      resolve();
    };
    stream.on('drain', done).on('error', done);
  });

const row = (id: number, generation: number) => `X'${bytesOf('db', id, generation, ROW_BYTES).toString('hex')}'`;

/** A table of 64 KB rows of random bytes, `bytes` in all, in a database the panel made; a change rewrites one row in a hundred. */
export function databaseData(database: string, bytes: number) {
  const rows = Math.max(1, Math.round(bytes / ROW_BYTES));
  return {
    rows,
    create: () =>
      sql(database, async (write) => {
        await write('CREATE TABLE bench_blob (id INT PRIMARY KEY, body LONGBLOB NOT NULL) ENGINE=InnoDB;\n');
        for (let id = 0; id < rows; id++) await write(`INSERT INTO bench_blob VALUES (${id}, ${row(id, 0)});\n`);
      }),
    async change(round: number) {
      const changed = Array.from({ length: Math.ceil(rows / 100) }, (_, k) => k * 100 + (round % 100)).filter((id) => id < rows);
      await sql(database, async (write) => {
        for (const id of changed) await write(`UPDATE bench_blob SET body = ${row(id, round + 1)} WHERE id = ${id};\n`);
      });
      return changed.length;
    },
  };
}
