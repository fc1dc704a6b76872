import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryPath, unpackArchive } from '../../src/drivers/installer/archive.ts';
import { InstallRefused } from '../../src/drivers/installer/interface.ts';
import { type Entry, tarGz, zip } from './archives.ts';

const LIMITS = { maxEntries: 100, maxBytes: 10_000 };

async function unpack(format: 'tar.gz' | 'zip', entries: Entry[], limits = LIMITS, root = 'app') {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-unpack-'));
  const file = path.join(dir, 'package');
  writeFileSync(file, format === 'zip' ? zip(entries) : await tarGz(entries));
  const target = path.join(dir, 'target');
  mkdirSync(target);
  const outcome = await unpackArchive(file, target, root, limits).then(
    () => null,
    (error: unknown) => error,
  );
  return { dir, target, outcome };
}

const refusal = (outcome: unknown) => (outcome instanceof InstallRefused ? outcome.key : String(outcome));

describe.each(['tar.gz', 'zip'] as const)('unpacking a %s package', (format) => {
  it('writes the files under the package’s top folder into the target, and nothing else', async () => {
    const { target, outcome } = await unpack(format, [
      { name: 'app/', dir: true },
      { name: 'app/index.php', body: '<?php echo 1;' },
      { name: 'app/lib/deep/x.txt', body: 'x' },
    ]);
    expect(outcome).toBeNull();
    expect(readFileSync(path.join(target, 'index.php'), 'utf8')).toBe('<?php echo 1;');
    expect(readFileSync(path.join(target, 'lib', 'deep', 'x.txt'), 'utf8')).toBe('x');
    expect(readdirSync(target).sort()).toEqual(['index.php', 'lib']);
  });

  // A name of this run's own, so a file another run left cannot hide an escape (or fake one).
  const evil = `evil-${randomBytes(6).toString('hex')}.php`;
  const escapes = [`app/../../${evil}`, `../${evil}`, `${tmpdir()}/${evil}`, `app/a/../../../${evil}`, 'other/x.php'];
  for (const name of escapes) {
    it(`refuses the entry ${name.replace(evil, 'evil.php')} and writes nothing outside the target`, async () => {
      const { dir, outcome } = await unpack(format, [
        { name: 'app/ok.php', body: 'ok' },
        { name, body: 'evil' },
      ]);
      expect(refusal(outcome)).toBe('sites.package_unsafe');
      for (const where of [dir, path.dirname(dir), tmpdir()]) expect(existsSync(path.join(where, evil)), where).toBe(false);
    });
  }

  it('refuses a symbolic link in the archive, even one pointing inside', async () => {
    const outside = await unpack(format, [{ name: 'app/etc', symlink: '/etc' }]);
    expect(refusal(outside.outcome)).toBe('sites.package_unsafe');
    expect(existsSync(path.join(outside.target, 'etc'))).toBe(false);
    const inside = await unpack(format, [
      { name: 'app/a.txt', body: 'a' },
      { name: 'app/b.txt', symlink: 'a.txt' },
    ]);
    expect(refusal(inside.outcome)).toBe('sites.package_unsafe');
  });

  it('refuses a name given twice instead of overwriting the first', async () => {
    const { target, outcome } = await unpack(format, [
      { name: 'app/a.txt', body: 'first' },
      { name: 'app/a.txt', body: 'second' },
    ]);
    expect(refusal(outcome)).toBe('sites.package_unsafe');
    expect(readFileSync(path.join(target, 'a.txt'), 'utf8')).toBe('first');
  });

  it('stops at one entry over the limit, and accepts exactly the limit', async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `app/f${i}.txt`, body: 'x' }));
    expect((await unpack(format, files(3), { maxEntries: 3, maxBytes: 100 })).outcome).toBeNull();
    expect(refusal((await unpack(format, files(4), { maxEntries: 3, maxBytes: 100 })).outcome)).toBe('sites.package_too_large');
  });

  it('stops when the unpacked bytes pass the limit, and accepts exactly the limit', async () => {
    const body = (n: number) => [{ name: 'app/big.bin', body: 'a'.repeat(n) }];
    expect((await unpack(format, body(1000), { maxEntries: 10, maxBytes: 1000 })).outcome).toBeNull();
    expect(refusal((await unpack(format, body(1001), { maxEntries: 10, maxBytes: 1000 })).outcome)).toBe('sites.package_too_large');
  });

  it('takes the files at the top when the package has no top folder', async () => {
    const { target, outcome } = await unpack(format, [{ name: 'index.html', body: 'hi' }], LIMITS, '');
    expect(outcome).toBeNull();
    expect(lstatSync(path.join(target, 'index.html')).isFile()).toBe(true);
  });
});

describe('a tar.gz package (zip has no hard links)', () => {
  it('refuses a hard link in the archive, which could tie a file to one outside', async () => {
    const { target, outcome } = await unpack('tar.gz', [
      { name: 'app/a.txt', body: 'a' },
      { name: 'app/passwd', hardlink: '/etc/passwd' },
    ]);
    expect(refusal(outcome)).toBe('sites.package_unsafe');
    expect(existsSync(path.join(target, 'passwd'))).toBe(false);
  });
});

describe('the archive format', () => {
  it('refuses a file that is neither gzip nor zip', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-unpack-'));
    writeFileSync(path.join(dir, 'p'), 'not an archive');
    await expect(unpackArchive(path.join(dir, 'p'), dir, '', LIMITS)).rejects.toMatchObject({ key: 'sites.package_format' });
  });

  it('refuses a tar.gz that ends in the middle of its data', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-unpack-'));
    const whole = await tarGz([{ name: 'app/a.txt', body: 'a'.repeat(5000) }]);
    writeFileSync(path.join(dir, 'p'), whole.subarray(0, whole.length - 40));
    mkdirSync(path.join(dir, 't'));
    await expect(unpackArchive(path.join(dir, 'p'), path.join(dir, 't'), 'app', LIMITS)).rejects.toMatchObject({
      key: 'sites.package_format',
    });
  });
});

describe('an entry’s path', () => {
  it('strips the top folder and the dots, and answers null for the folder itself', () => {
    expect(entryPath('app/./a//b.txt', 'app')).toBe('a/b.txt');
    expect(entryPath('app/', 'app')).toBeNull();
    expect(entryPath('a.txt', '')).toBe('a.txt');
  });
  it('refuses backslashes, drive letters and NUL', () => {
    for (const name of ['app\\..\\x', 'C:/x', 'app/a\0b']) expect(() => entryPath(name, 'app'), name).toThrow(InstallRefused);
  });
});
