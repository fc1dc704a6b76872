import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ACME_TOKEN, checkChallenge, type SiteState } from '../../sites/interface.ts';
import { readOrNull, withLock, writeAtomic } from '../common/files.ts';
import { absoluteInside, fileKey, hostName, resolveInside } from '../common/names.ts';
import { run, runChecked } from '../common/run.ts';
import { applyChanges, type FileChange, listDir } from './files.ts';
import { nginxOptions } from './options.ts';
import { framePage, parkingPage, suspendedPage } from './pages.ts';
import { renderVhost, type Vhost } from './render.ts';
import { originPath, redirectTarget } from './syntax.ts';

/** nginx refused the generated configuration; the files were put back as they were. */
export class NginxRejected extends Error {}

/** What the backend remembers of a host: its wanted state, the PEM texts replaced by a flag. */
export type StoredSite = Omit<SiteState, 'ssl'> & { ssl: boolean };
type ServiceFacts = SiteState['service'];

const KEY = /^(site|apex)-\d+$/;
/** The pages the backend writes for a host, and only those, are removed when no longer wanted. */
const GENERATED_PAGE = /^((parking|suspended|frame-\d+)\.html|mta-sts\.txt)$/;

export type NginxBackend = ReturnType<typeof nginxBackend>;

/**
 * The nginx backend: one vhost file per host under `<baseDir>/sites/`, certificates under
 * `certs/` (0600), generated pages under `pages/`, the last applied state under `state/`. Every
 * change is written, checked with `nginx -t`, and either reloaded or rolled back as a whole.
 */
export function nginxBackend(raw: Record<string, unknown>) {
  const o = nginxOptions(raw);
  const dir = {
    sites: path.join(o.baseDir, 'sites'),
    certs: path.join(o.baseDir, 'certs'),
    pages: path.join(o.baseDir, 'pages'),
    state: path.join(o.baseDir, 'state'),
    acme: path.join(o.baseDir, 'acme'),
  };
  const confArgs = ['-c', o.confFile, ...(o.prefix ? ['-p', o.prefix] : [])];
  const key = (k: string) => {
    if (!KEY.test(k)) throw new Error(`invalid site key ${JSON.stringify(k)}`);
    return fileKey(k);
  };
  const files = (k: string) => ({
    conf: path.join(dir.sites, `${k}.conf`),
    cert: path.join(dir.certs, `${k}.crt`),
    key: path.join(dir.certs, `${k}.key`),
    pages: path.join(dir.pages, k),
    state: path.join(dir.state, `${k}.json`),
    acme: path.join(dir.acme, k),
  });

  const webRootOf = (reference: string) => o.webRoot.replace('{reference}', hostName(reference));
  const phpSocketOf = (version: string) => {
    const v = version === 'default' || version === '' ? o.defaultPhp : version;
    if (!/^\d\.\d$/.test(v)) throw new Error(`invalid PHP version ${JSON.stringify(version)}`);
    return o.phpSocket.replace('{version}', v);
  };

  function vhostOf(site: StoredSite): Vhost {
    const f = files(site.key);
    const seen = new Set<string>();
    const redirections = [...site.redirections]
      .sort((a, b) => a.id - b.id)
      .map((r) => ({ id: r.id, origin: originPath(r.origin), kind: r.kind, target: redirectTarget(r.target) }))
      // Two redirections of one path would make nginx refuse the whole file; the older one wins.
      .filter((r) => !seen.has(r.origin) && seen.add(r.origin) !== undefined);
    for (const r of redirections) if (!Number.isSafeInteger(r.id) || r.id < 0) throw new Error('invalid redirection id');
    const webRoot = webRootOf(site.reference);
    return {
      key: site.key,
      host: hostName(site.host),
      reference: hostName(site.reference),
      root: site.folder === null ? null : resolveInside(webRoot, site.folder),
      phpSocket: site.service.kind === 'normal' ? phpSocketOf(site.service.phpVersion) : null,
      parking: site.service.parkingActive,
      suspended: site.service.suspended === true,
      mtaSts: Boolean(site.mtaSts),
      tls: site.ssl ? { certFile: f.cert, keyFile: f.key } : null,
      pagesDir: f.pages,
      acmeDir: f.acme,
      redirections,
      logDir: o.logDir,
      listen: { address: o.listenAddress, http: o.httpPort, https: o.httpsPort },
    };
  }

  async function pageChanges(site: StoredSite, v: Vhost): Promise<FileChange[]> {
    const f = files(site.key);
    const wanted = new Map<string, string>();
    if (v.suspended)
      wanted.set('suspended.html', suspendedPage(v.host, o.suspendedTemplate ? await readFile(o.suspendedTemplate, 'utf8') : undefined));
    if (v.parking) {
      const template = o.parkingTemplate ? await readFile(o.parkingTemplate, 'utf8') : undefined;
      wanted.set('parking.html', parkingPage(v.host, template));
    }
    if (site.mtaSts) wanted.set('mta-sts.txt', site.mtaSts);
    for (const r of site.redirections) {
      if (r.kind !== 'frame') continue;
      wanted.set(`frame-${r.id}.html`, framePage(redirectTarget(r.target), r.frame ?? { title: '', description: '', keywords: '' }));
    }
    const stale = (await listDir(f.pages)).filter((n) => !wanted.has(n) && GENERATED_PAGE.test(n));
    return [
      ...[...wanted].map(([name, content]) => ({ file: path.join(f.pages, name), content, mode: 0o644 })),
      ...stale.map((name) => ({ file: path.join(f.pages, name), content: null, mode: 0o644 })),
    ];
  }

  /** Every file of a host; `pem` undefined keeps the certificate files as they are. */
  async function siteChanges(site: StoredSite, pem?: SiteState['ssl']): Promise<FileChange[]> {
    const f = files(site.key);
    const v = vhostOf(site);
    const changes: FileChange[] = [{ file: f.conf, content: renderVhost(v), mode: 0o644 }];
    if (pem !== undefined) {
      changes.push(
        { file: f.cert, content: pem ? `${pem.cert.trim()}\n${pem.chain.trim() ? `${pem.chain.trim()}\n` : ''}` : null, mode: 0o600 },
        { file: f.key, content: pem ? `${pem.key.trim()}\n` : null, mode: 0o600 },
      );
    }
    changes.push(...(await pageChanges(site, v)));
    changes.push({ file: f.state, content: JSON.stringify(site), mode: 0o600 });
    return changes;
  }

  /** Writes, tests, then reloads, or puts every file back and reports nginx's complaint. */
  async function commit(changes: FileChange[]) {
    await mkdir(o.logDir, { recursive: true, mode: 0o750 }); // nginx -t fails on a log it cannot open
    const before = index !== null && index.mtime === (await stateDirMtime()) ? index.sites : null;
    index = null; // whatever happens below, the index is rebuilt unless the commit succeeds on a fresh one
    const undo = await applyChanges(changes);
    const test = await run(o.nginx, ['-t', '-q', ...confArgs], { timeoutMs: o.timeoutMs }).catch(async (error: unknown) => {
      await undo();
      throw error;
    });
    if (test.code !== 0) {
      await undo();
      const detail = test.stderr
        .trim()
        .split('\n')
        .filter((l) => l.includes('[emerg]') || l.includes('[crit]'))
        .join(' | ');
      throw new NginxRejected(`nginx refused the configuration: ${detail || test.stderr.trim().slice(0, 500)}`);
    }
    const [program, ...args] = o.reload ?? [o.nginx, '-s', 'reload', ...confArgs];
    await runChecked(program!, args, { timeoutMs: o.timeoutMs });
    if (before) index = { mtime: await stateDirMtime(), sites: indexAfter(before, changes) };
  }

  async function stored(k: string): Promise<StoredSite | null> {
    try {
      return JSON.parse(await readFile(files(k).state, 'utf8')) as StoredSite;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /**
   * Every host's last applied state, kept in memory while the state directory is unchanged: a
   * change then costs one stat, not a read of every host's file. Every write renames a file in
   * that directory (another process's too, under the same lock), which moves its mtime.
   */
  let index: { mtime: bigint; sites: Map<string, StoredSite> } | null = null;

  async function stateDirMtime(): Promise<bigint> {
    try {
      return (await stat(dir.state, { bigint: true })).mtimeNs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return -1n;
      throw error;
    }
  }

  async function storedAll(): Promise<StoredSite[]> {
    const mtime = await stateDirMtime();
    if (index?.mtime !== mtime) {
      const names = (await listDir(dir.state)).filter((n) => n.endsWith('.json') && KEY.test(n.slice(0, -5)));
      const sites = (await Promise.all(names.map((n) => stored(n.slice(0, -5))))).filter((s): s is StoredSite => s !== null);
      index = { mtime, sites: new Map(sites.map((s) => [s.key, s])) };
    }
    return [...index.sites.values()];
  }

  /** The index as the committed changes leave it (called only when it was fresh before them). */
  function indexAfter(before: Map<string, StoredSite>, changes: FileChange[]): Map<string, StoredSite> {
    const sites = new Map(before);
    for (const change of changes) {
      if (path.dirname(change.file) !== dir.state) continue;
      const k = path.basename(change.file, '.json');
      if (change.content === null) sites.delete(k);
      else sites.set(k, JSON.parse(String(change.content)) as StoredSite);
    }
    return sites;
  }

  const locked = <T>(fn: () => Promise<T>) => withLock(path.join(o.baseDir, '.lock'), fn);

  return {
    options: o,
    webRootOf,

    /** Creates or replaces a host so that nginx serves exactly `site`. */
    applySite: (site: SiteState) =>
      locked(async () => {
        key(site.key);
        const others = (await storedAll()).filter((s) => s.key !== site.key && s.host === site.host);
        if (others.length) throw new NginxRejected(`host ${site.host} is already served by ${others[0]!.key}`);
        const { ssl, ...rest } = site;
        const next: StoredSite = { ...rest, ssl: ssl !== null };
        const webRoot = webRootOf(site.reference);
        if (site.folder !== null) await mkdir(resolveInside(webRoot, site.folder), { recursive: true, mode: 0o755 });
        await commit(await siteChanges(next, ssl));
      }),

    /** Removes a host with its certificate and pages; an unknown key is not an error. */
    removeSite: (k: string) =>
      locked(async () => {
        const f = files(key(k));
        const pages = (await listDir(f.pages)).filter((n) => GENERATED_PAGE.test(n));
        await commit([
          { file: f.conf, content: null, mode: 0o644 },
          { file: f.cert, content: null, mode: 0o600 },
          { file: f.key, content: null, mode: 0o600 },
          ...pages.map((n) => ({ file: path.join(f.pages, n), content: null, mode: 0o644 })),
          { file: f.state, content: null, mode: 0o600 },
        ]);
        await rm(f.acme, { recursive: true, force: true });
      }),

    /** New PHP version or parking state of a service: every host of it is rewritten at once. */
    applyService: (reference: string, service: ServiceFacts) =>
      locked(async () => {
        await mkdir(webRootOf(reference), { recursive: true, mode: 0o755 });
        const hosts = (await storedAll()).filter((s) => s.reference === reference);
        const changes: FileChange[] = [];
        for (const site of hosts) changes.push(...(await siteChanges({ ...site, service })));
        if (changes.length) await commit(changes);
      }),

    /** Termination: the service's web root and every file in it; its hosts were removed before. */
    removeService: (reference: string) =>
      locked(async () => {
        await rm(webRootOf(reference), { recursive: true, force: true });
      }),

    /** HTTP-01: one file per token in the host's ACME directory, readable by nginx's workers. */
    async putChallenge(k: string, token: string, keyAuthorization: string) {
      checkChallenge(token, keyAuthorization);
      const d = files(key(k)).acme;
      await mkdir(d, { recursive: true, mode: 0o755 });
      await writeAtomic(path.join(d, token), keyAuthorization, 0o644);
    },

    async removeChallenge(k: string, token: string) {
      if (!ACME_TOKEN.test(token)) throw new Error(`invalid ACME token ${JSON.stringify(token)}`);
      await rm(path.join(files(key(k)).acme, token), { force: true });
    },

    /** What the backend serves now, by key (for reconcile). */
    list: () => storedAll(),

    /**
     * Whether a stored host's files are still the ones the panel wrote (for reconcile): the state
     * file alone cannot tell that someone deleted or edited the vhost or its certificate.
     */
    async onDisk(site: StoredSite): Promise<'ok' | 'missing' | 'changed'> {
      const f = files(key(site.key));
      const conf = await readOrNull(f.conf);
      if (conf === null) return 'missing';
      if (site.ssl && ((await readOrNull(f.cert)) === null || (await readOrNull(f.key)) === null)) return 'missing';
      return conf.toString('utf8') === renderVhost(vhostOf(site)) ? 'ok' : 'changed';
    },

    /** The path of a service's error log, derived from its reference only. */
    errorLogFile: (reference: string) => absoluteInside(o.logDir, path.join(o.logDir, `${hostName(reference)}.error.log`)),
  };
}
