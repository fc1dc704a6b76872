import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { absoluteInside, fileKey, hostName, InvalidName, mailAddress, resolveInside } from '../../src/drivers/real/common/names.ts';

/** The last checks before a name becomes a file name, a config token or a program argument. */
describe('names a real backend receives', () => {
  it('accepts lower-case punycode host names up to 253 characters, and nothing else', () => {
    const long = `${['a', 'b', 'c'].map((c) => c.repeat(63)).join('.')}.${'d'.repeat(61)}`;
    expect(long).toHaveLength(253);
    for (const ok of ['example.com', 'a-b.example.com', 'xn--mller-kva.de', '1.example.com', long]) expect(hostName(ok)).toBe(ok);
    for (const bad of [
      'localhost',
      'Example.com',
      '-a.example.com',
      'a-.example.com',
      'a..example.com',
      '*.example.com',
      'example.com.',
      'a_b.example.com',
      `${'a'.repeat(64)}.example.com`,
      `${long}a`,
      '',
    ]) {
      expect(() => hostName(bad), bad).toThrow(InvalidName);
    }
  });

  it('takes e-mail addresses with a conservative local part, lower-cased', () => {
    expect(mailAddress('Ana.Perez+x@Example.COM')).toEqual({ local: 'ana.perez+x', domain: 'example.com' });
    expect(mailAddress(`${'a'.repeat(64)}@x.es`).local).toHaveLength(64);
    expect(mailAddress('@x.es', true)).toEqual({ local: '', domain: 'x.es' });
    for (const bad of [
      '@x.es',
      'no-at',
      '.a@x.es',
      'a.@x.es',
      'a..b@x.es',
      'a b@x.es',
      'a@b@x.es',
      `${'a'.repeat(65)}@x.es`,
      'a@x',
      'a@',
    ]) {
      expect(() => mailAddress(bad), bad).toThrow(InvalidName);
    }
    expect(() => mailAddress('no-at', true)).toThrow(InvalidName);
    expect(() => mailAddress('ana.example.es')).toThrow(InvalidName);
    expect(() => mailAddress('.a@x.es', true)).toThrow(InvalidName);
  });

  it('quotes at most 80 characters of a refused value in its message', () => {
    const long = `${'x'.repeat(100)}!`;
    const quoted = JSON.stringify('x'.repeat(80));
    expect(() => hostName(long)).toThrow(`invalid host name: ${quoted}`);
    expect(() => mailAddress(`${long}@x.es`)).toThrow(`invalid e-mail address: ${quoted}`);
    expect(() => fileKey(long)).toThrow(`invalid key: ${quoted}`);
  });

  it('takes file keys of letters, digits, dots, dashes and underscores, up to 128', () => {
    for (const ok of ['site-12', 'a.b_c-D', 'x'.repeat(128), '9']) expect(fileKey(ok)).toBe(ok);
    for (const bad of ['', '.hidden', '-x', '_x', 'a/b', 'a..b', 'x'.repeat(129), 'a b', 'a\0b']) {
      expect(() => fileKey(bad), bad).toThrow(InvalidName);
    }
  });
});

describe('paths kept inside their root', () => {
  let dir: string;
  let root: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'atalaya-names-'));
    root = path.join(dir, 'root');
    mkdirSync(path.join(root, 'site', 'public'), { recursive: true });
    mkdirSync(path.join(dir, 'outside'));
    // A sibling whose name starts with the root's: a prefix match alone would take it for inside.
    mkdirSync(path.join(dir, 'root2', 'x'), { recursive: true });
    symlinkSync(path.join(dir, 'outside'), path.join(root, 'escape'));
    symlinkSync(path.join(dir, 'root2'), path.join(root, 'sibling'));
    symlinkSync(path.join(root, 'site'), path.join(root, 'alias'));
    symlinkSync(root, path.join(dir, 'root-link'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves a relative path, with or without leading slashes, existing or not', () => {
    expect(resolveInside(root, 'site/public')).toBe(path.join(root, 'site', 'public'));
    expect(resolveInside(root, '//site/new/deeper')).toBe(path.join(root, 'site', 'new', 'deeper'));
    expect(resolveInside(root, '')).toBe(root);
    expect(resolveInside(`${root}/`, 'site')).toBe(path.join(root, 'site'));
    expect(resolveInside(root, 'alias/public')).toBe(path.join(root, 'alias', 'public'));
    // A root not made yet is taken as it is written.
    expect(resolveInside(path.join(dir, 'not-yet'), 'a/b')).toBe(path.join(dir, 'not-yet', 'a', 'b'));
    // A root reached through a link is still the root.
    expect(resolveInside(path.join(dir, 'root-link'), 'site')).toBe(path.join(dir, 'root-link', 'site'));
  });

  it('refuses .. segments, NUL, and links that lead out, even to a sibling with the same prefix', () => {
    const refused = (relative: string, rootDir = root) => {
      try {
        resolveInside(rootDir, relative);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidName);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused('site/../site')).toBe('path contains ..');
    expect(refused('..')).toBe('path contains ..');
    expect(refused('site\\..\\..\\x')).toBe('path contains ..');
    expect(refused('site/a\0b')).toBe('path contains NUL');
    expect(refused('site', `${root}\0`)).toBe('path contains NUL');
    expect(refused('escape')).toBe('path leaves its root through a link');
    expect(refused('escape/new/file')).toBe('path leaves its root through a link');
    expect(refused('sibling/x')).toBe('path leaves its root through a link');
    expect(refused('site/..hidden')).toBe('accepted');
  });

  it('checks an absolute path against the root', () => {
    expect(absoluteInside(root, path.join(root, 'site'))).toBe(path.join(root, 'site'));
    expect(absoluteInside(root, root)).toBe(root);
    expect(absoluteInside(root, `${root}/site/./public/`)).toBe(path.join(root, 'site', 'public'));
    expect(() => absoluteInside(root, 'site')).toThrow('path must be absolute');
    expect(() => absoluteInside(root, '/etc')).toThrow(InvalidName);
    expect(() => absoluteInside(root, `${root}/../outside`)).toThrow(InvalidName);
    expect(() => absoluteInside(root, path.join(dir, 'root2'))).toThrow(InvalidName);
    expect(() => absoluteInside(root, path.join(root, 'escape'))).toThrow('path leaves its root through a link');
  });
});
