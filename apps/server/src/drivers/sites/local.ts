import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeAtomic } from '../real/common/files.ts';
import { resolveInside } from '../real/common/names.ts';
import { ACME_TOKEN, checkChallenge, type SiteState, type SitesDriver } from './interface.ts';
import { localWebRoot } from './paths.ts';

const KEY = /^(site|apex)-\d+$/;

/**
 * Keeps each host's wanted state as a JSON file under `<dataDir>/sites/` (mode 0600, the private
 * key replaced by its fingerprint) and creates the document root in the service's web root, so a
 * test or an operator can observe what a real web server would have been told.
 */
export function localSitesDriver(dataDir: string): SitesDriver {
  const dir = path.join(dataDir, 'sites');
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`invalid site key ${key}`);
    return path.join(dir, `${key}.json`);
  };
  return {
    name: 'local',
    async applySite(site: SiteState) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Like a web server refusing a duplicate server name, one host belongs to one key only.
      for (const other of readdirSync(dir)) {
        if (!other.endsWith('.json') || other === `${site.key}.json`) continue;
        const state = JSON.parse(readFileSync(path.join(dir, other), 'utf8')) as { host: string };
        if (state.host === site.host) throw new Error(`host ${site.host} is already served by ${other.slice(0, -5)}`);
      }
      if (site.folder !== null) mkdirSync(resolveInside(localWebRoot(dataDir, site.reference), site.folder), { recursive: true });
      const ssl = site.ssl && {
        cert: site.ssl.cert,
        chain: site.ssl.chain,
        keySha256: createHash('sha256').update(site.ssl.key).digest('hex'),
      };
      await writeAtomic(fileOf(site.key), JSON.stringify({ ...site, ssl }, null, 2), 0o600);
    },
    async removeSite(key: string) {
      rmSync(fileOf(key), { force: true });
      rmSync(challengeDir(key), { recursive: true, force: true });
    },
    async putChallenge(key, token, keyAuthorization) {
      checkChallenge(token, keyAuthorization);
      mkdirSync(challengeDir(key), { recursive: true, mode: 0o700 });
      await writeAtomic(path.join(challengeDir(key), token), keyAuthorization, 0o600);
    },
    async removeChallenge(key, token) {
      if (!ACME_TOKEN.test(token)) throw new Error(`invalid ACME token ${JSON.stringify(token)}`);
      rmSync(path.join(challengeDir(key), token), { force: true });
    },
  };
  /** HTTP-01 answers of a host, one file per token, under `<dataDir>/sites/acme/<key>/`. */
  function challengeDir(key: string) {
    fileOf(key);
    return path.join(dir, 'acme', key);
  }
}

/** The HTTP-01 answer the local driver holds for a host's token, or null (for tests). */
export function readLocalChallenge(dataDir: string, key: string, token: string): string | null {
  try {
    return readFileSync(path.join(dataDir, 'sites', 'acme', key, token), 'utf8');
  } catch {
    return null;
  }
}

/** The state the local driver last applied for a key, or null (for tests and the reconcile command). */
export function readLocalSite(
  dataDir: string,
  key: string,
): (Omit<SiteState, 'ssl'> & { ssl: { cert: string; chain: string; keySha256: string } | null }) | null {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, 'sites', `${key}.json`), 'utf8'));
  } catch {
    return null;
  }
}
