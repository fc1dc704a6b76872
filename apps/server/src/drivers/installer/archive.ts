import { constants, createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type yauzl from 'yauzl';
import { InstallRefused } from './interface.ts';

export interface ArchiveLimits {
  /** Files and folders an archive may hold. */
  maxEntries: number;
  /** Bytes its files may take once unpacked (counted as they are written, not as headers claim). */
  maxBytes: number;
}

/**
 * The path an archive entry is written to, relative to the target, or null for the root folder
 * itself. Anything that could land outside the target is refused: absolute names, drive letters,
 * backslashes, NUL, `..`, and entries outside the package's own root folder.
 */
export function entryPath(name: string, root: string): string | null {
  if (name.includes('\0') || name.includes('\\') || name.startsWith('/') || /^[a-zA-Z]:/.test(name)) {
    throw new InstallRefused('sites.package_unsafe', name);
  }
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new InstallRefused('sites.package_unsafe', name);
  if (root !== '') {
    if (parts[0] !== root) throw new InstallRefused('sites.package_unsafe', name);
    parts.shift();
  }
  return parts.length === 0 ? null : parts.join('/');
}

type Kind = 'file' | 'directory';

/** Writes the entries of one archive into an empty folder the installer made, counting against the limits. */
function writer(target: string, root: string, limits: ArchiveLimits, signal?: AbortSignal) {
  let entries = 0;
  let bytes = 0;
  const count = () =>
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        if (bytes > limits.maxBytes) done(new InstallRefused('sites.package_too_large', `over ${limits.maxBytes} bytes`));
        else done(null, chunk);
      },
    });
  return async (name: string, kind: Kind | 'other', body: Readable | null) => {
    signal?.throwIfAborted();
    if (++entries > limits.maxEntries) throw new InstallRefused('sites.package_too_large', `over ${limits.maxEntries} entries`);
    // Links, devices and pipes could point outside the target or be read as something else.
    if (kind === 'other') throw new InstallRefused('sites.package_unsafe', name);
    const relative = entryPath(name, root);
    if (relative === null) return body?.resume();
    const destination = path.join(target, relative);
    if (kind === 'directory') {
      await mkdir(destination, { recursive: true, mode: 0o755 });
      return body?.resume();
    }
    await mkdir(path.dirname(destination), { recursive: true, mode: 0o755 });
    // The folder is new and the archive holds no links, so nothing can redirect the write; O_EXCL
    // and O_NOFOLLOW make sure of it, and a name given twice is refused rather than overwritten.
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const handle = await open(destination, flags, 0o644).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? new InstallRefused('sites.package_unsafe', `${name} given twice`) : error;
    });
    try {
      await pipeline(body!, count(), handle.createWriteStream());
    } finally {
      await handle.close().catch(() => {});
    }
  };
}

async function unpackTarGz(file: string, write: ReturnType<typeof writer>) {
  // Loaded with the first installation: most starts never unpack anything.
  const { default: tar } = await import('tar-stream');
  const extract = tar.extract();
  const feeding = pipeline(createReadStream(file), createGunzip(), extract);
  try {
    for await (const entry of extract) {
      const type = entry.header.type;
      const kind = type === 'file' || type === 'contiguous-file' ? 'file' : type === 'directory' ? 'directory' : 'other';
      await write(entry.header.name, kind, entry as unknown as Readable);
    }
    await feeding;
  } catch (error) {
    extract.destroy();
    await feeding.catch(() => {});
    throw error;
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function zipKind(entry: yauzl.Entry): Kind | 'other' {
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  const isDir = entry.fileName.endsWith('/');
  // Archives made on systems without Unix modes carry 0: a plain file or folder by its name.
  if (mode === 0) return isDir ? 'directory' : 'file';
  if (mode === S_IFDIR) return 'directory';
  return mode === S_IFREG && !isDir ? 'file' : 'other';
}

async function unpackZip(file: string, write: ReturnType<typeof writer>) {
  const { default: yauzl } = await import('yauzl');
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, decodeStrings: true, strictFileNames: true, validateEntrySizes: true }, (e, z) =>
      e || !z ? reject(e) : resolve(z),
    ),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        const kind = zipKind(entry);
        const opened =
          kind === 'file'
            ? new Promise<Readable>((ok, ko) => zip.openReadStream(entry, (e, s) => (e || !s ? ko(e) : ok(s))))
            : Promise.resolve(null);
        opened.then((body) => write(entry.fileName, kind, body)).then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } catch (error) {
    // yauzl reports names it finds unsafe (absolute, `..`, backslashes) as errors of its own.
    if (error instanceof InstallRefused) throw error;
    if (/invalid relative path|absolute path|invalid characters/.test(String(error))) {
      throw new InstallRefused('sites.package_unsafe', String(error));
    }
    throw error;
  } finally {
    zip.close();
  }
}

/** The archive's format by its first bytes: gzip (a .tar.gz) or zip. */
async function formatOf(file: string): Promise<'tar.gz' | 'zip'> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    if (bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'tar.gz';
    if (bytesRead === 4 && buffer.readUInt32LE(0) === 0x04034b50) return 'zip';
  } finally {
    await handle.close();
  }
  throw new InstallRefused('sites.package_format');
}

/**
 * Unpacks a .tar.gz or .zip into `target`, which the caller created empty for it. Only files and
 * folders under `root` (the package's top folder, '' for none) are accepted; the first entry that
 * breaks a rule or a limit stops the whole unpacking with a refusal, and the caller removes the folder;
 * `signal` stops it at the next entry.
 */
export async function unpackArchive(
  file: string,
  target: string,
  root: string,
  limits: ArchiveLimits,
  signal?: AbortSignal,
): Promise<void> {
  const write = writer(target, root, limits, signal);
  if ((await formatOf(file)) === 'zip') await unpackZip(file, write);
  else
    await unpackTarGz(file, write).catch((error: NodeJS.ErrnoException) => {
      // A broken gzip stream or tar header is a bad package; a file system error is retried.
      if (String(error.code).startsWith('Z_') || /tar header|unexpected end/i.test(error.message)) {
        throw new InstallRefused('sites.package_format', error.message);
      }
      throw error;
    });
}
