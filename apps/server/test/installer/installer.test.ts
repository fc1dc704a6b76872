import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.ts';
import { packageInstaller } from '../../src/drivers/installer/installer.ts';
import { InstallRefused, type InstallRequest } from '../../src/drivers/installer/interface.ts';
import { installerOptions, installerOptionsSchema, packageOf } from '../../src/drivers/installer/options.ts';
import { packageFile, tarGz } from './archives.ts';

const OPTIONS = installerOptionsSchema.parse({});

async function setUp() {
  const roots = mkdtempSync(path.join(tmpdir(), 'atalaya-install-'));
  mkdirSync(path.join(roots, 'tienda.es'));
  const source = packageFile(path.join(roots, 'pkg.tar.gz'), await tarGz([{ name: 'app/index.html', body: 'hola' }]));
  const request = (directory: string, overwrite = false): InstallRequest => ({
    installationId: 7,
    reference: 'tienda.es',
    directory,
    url: 'https://tienda.es/app/',
    application: { key: 'app', softName: 'App', version: '1', recipe: 'static', archiveRoot: 'app' },
    package: { location: source.path, sha256: source.sha256 },
    inputs: {},
    overwrite,
    database: null,
  });
  return { roots, service: path.join(roots, 'tienda.es'), request, installer: packageInstaller(roots, OPTIONS) };
}

describe('the package installer', () => {
  it('refuses a folder that leaves the web root through a link a customer made', async () => {
    const { roots, service, request, installer } = await setUp();
    const outside = mkdtempSync(path.join(tmpdir(), 'atalaya-outside-'));
    symlinkSync(outside, path.join(service, 'x'));
    await expect(installer.install(request('x/app'), async () => {})).rejects.toThrow(/link/);
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(service)).toEqual(['x']);
    expect(existsSync(path.join(roots, 'tienda.es', '.atalaya-install-7'))).toBe(false);
  });

  it('reports its steps in order up to 100', async () => {
    const { service, request, installer } = await setUp();
    const steps: number[] = [];
    await installer.install(request('site'), async (p) => void steps.push(p));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)).toBe(100);
    expect(readdirSync(path.join(service, 'site'))).toEqual(['index.html']);
  });

  it('installs into the web root itself, keeping nothing of its own beside the files', async () => {
    const { service, request, installer } = await setUp();
    await installer.install(request(''), async () => {});
    expect(readdirSync(service)).toEqual(['index.html']);
  });

  it('leaves a folder with files as it was without overwrite, and replaces its content with it', async () => {
    const { service, request, installer } = await setUp();
    mkdirSync(path.join(service, 'site'));
    writeFileSync(path.join(service, 'site', 'mine.html'), 'mine');
    await expect(installer.install(request('site'), async () => {})).rejects.toMatchObject({ key: 'sites.install_not_empty' });
    expect(readdirSync(path.join(service, 'site'))).toEqual(['mine.html']);
    await installer.install(request('site', true), async () => {});
    expect(readdirSync(path.join(service, 'site'))).toEqual(['index.html']);
    expect(readdirSync(service)).toEqual(['site']);
  });
});

describe('a package on the provider’s mirror', () => {
  it('is downloaded over HTTP and installed; a mirror answering 404 is an error to retry that leaves nothing', async () => {
    const { service, request, installer } = await setUp();
    const local = request('site');
    const body = readFileSync(local.package.location);
    const server = http.createServer((req, res) => {
      if (req.url === '/wp.tar.gz') res.end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await installer.install({ ...local, package: { ...local.package, location: `${base}/wp.tar.gz` } }, async () => {});
      expect(readdirSync(path.join(service, 'site'))).toEqual(['index.html']);
      const gone = { ...request('other'), package: { ...local.package, location: `${base}/gone.tar.gz` } };
      const failure = await installer.install(gone, async () => {}).catch((e: unknown) => e);
      expect(failure).not.toBeInstanceOf(InstallRefused);
      expect(String(failure)).toContain('HTTP 404');
      expect(readdirSync(service)).toEqual(['site']);
    } finally {
      server.close();
    }
  });
});

describe('an installation whose job is aborted', () => {
  it('stops a download that hangs when its signal aborts, well before the download time-out, leaving nothing', async () => {
    const { roots, service, request, installer } = await setUp();
    // A mirror that sends the headers and a first chunk, then nothing more.
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-length': '1000000' });
      res.write('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const local = request('site');
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('time limit')), 300);
      const started = Date.now();
      const failure = await installer
        .install({ ...local, package: { ...local.package, location: `${base}/slow.tar.gz` } }, async () => {}, controller.signal)
        .catch((e: unknown) => e);
      // Stopped by the signal, not by the download's own time-out (300 s): far inside it however loaded the machine.
      expect(Date.now() - started).toBeLessThan(OPTIONS.downloadTimeoutMs / 10);
      expect(failure).toBeInstanceOf(Error);
      expect(readdirSync(service)).toEqual([]);
      expect(existsSync(path.join(roots, 'tienda.es', '.atalaya-install-7'))).toBe(false);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('the installer’s options', () => {
  const optionsOf = (installer: Record<string, unknown>) => () => installerOptions({ drivers: { installer } } as unknown as Config);

  it('stop the start naming the package whose checksum or place is wrong', () => {
    expect(optionsOf({ packages: { wordpress: { path: '/srv/wp.tgz', sha256: 'abc' } } })).toThrow(
      /drivers\.installer\.packages\.wordpress\.sha256/,
    );
    expect(optionsOf({ packages: { wordpress: { path: 'wp.tgz', sha256: 'a'.repeat(64) } } })).toThrow(/packages\.wordpress\.path/);
    expect(optionsOf({ packages: { wordpress: { sha256: 'a'.repeat(64) } } })).toThrow(/either url or path/);
    expect(optionsOf({ packages: { wordpress: { url: 'ftp://mirror/wp.tgz', sha256: 'a'.repeat(64) } } })).toThrow(/http/);
  });

  it('take a package on the mirror or on disk, its checksum in any case', () => {
    const options = optionsOf({ packages: { wordpress: { url: 'https://mirror.example.net/wp.tgz', sha256: 'AB'.repeat(32) } } })();
    expect(packageOf(options, 'wordpress')).toEqual({ location: 'https://mirror.example.net/wp.tgz', sha256: 'ab'.repeat(32) });
    expect(packageOf(options, 'joomla')).toBeNull();
  });
});
