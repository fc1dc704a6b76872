import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { editDistance, nearest } from './unknown-keys.ts';

const env = { ATALAYA_CONFIG: '' } as NodeJS.ProcessEnv;

describe('configuration', () => {
  it('has working defaults: port 8080, ./data, the embedded store, indigo', () => {
    const config = loadConfig({ ...env });
    expect(config).toMatchObject({ port: 8080, dataDir: './data', company: { color: 'indigo', name: 'Atalaya' } });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('takes environment overrides for port, data dir, database and branding', () => {
    const config = loadConfig({
      PORT: '9000',
      ATALAYA_DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://h/db',
      ATALAYA_COMPANY: 'Hostia',
      ATALAYA_COLOR: 'teal',
      ATALAYA_LANGUAGES: 'es,en',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://h/db',
      company: { name: 'Hostia', color: 'teal' },
      languages: ['es', 'en'],
    });
  });

  it('stops on a bad value with a message that names the key and what is expected', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/port \(PORT\)/);
    expect(() => loadConfig({ ATALAYA_COLOR: 'chartreuse' })).toThrow(/company\.color \(ATALAYA_COLOR\)/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/databaseUrl \(DATABASE_URL\): a postgres:\/\/ URL/);
    expect(() => loadConfig({ ATALAYA_DEMO_PASSWORD: 'short' })).toThrow(/demoPassword.*at least 10 characters/);
  });

  it("defaults ACME to Let's Encrypt production with HTTP-01 and refuses a bad directory, e-mail or challenge by key", () => {
    expect(loadConfig({ ...env }).acme).toEqual({ directoryUrl: 'https://acme-v02.api.letsencrypt.org/directory', challenge: 'http-01' });
    const staging = 'https://acme-staging-v02.api.letsencrypt.org/directory';
    expect(loadConfig({ ATALAYA_ACME_DIRECTORY: staging, ATALAYA_ACME_CHALLENGE: 'dns-01' }).acme).toMatchObject({
      directoryUrl: staging,
      challenge: 'dns-01',
    });
    expect(() => loadConfig({ ATALAYA_ACME_DIRECTORY: 'not a url' })).toThrow(/acme\.directoryUrl \(ATALAYA_ACME_DIRECTORY\)/);
    expect(() => loadConfig({ ATALAYA_ACME_EMAIL: 'nobody' })).toThrow(/acme\.email \(ATALAYA_ACME_EMAIL\)/);
    expect(() => loadConfig({ ATALAYA_ACME_CHALLENGE: 'tls-alpn-01' })).toThrow(/acme\.challenge \(ATALAYA_ACME_CHALLENGE\)/);
  });

  it('logs at info unless ATALAYA_LOG_LEVEL says otherwise, and names the levels it takes when it is not one', () => {
    expect(loadConfig({ ...env }).logLevel).toBe('info');
    expect(loadConfig({ ...env, ATALAYA_LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(() => loadConfig({ ...env, ATALAYA_LOG_LEVEL: 'verbose' })).toThrow(
      /logLevel \(ATALAYA_LOG_LEVEL\): one of trace, debug, info, warn, error, fatal, silent/,
    );
  });

  it('refuses a named config file that does not exist', () => {
    expect(() => loadConfig({ ATALAYA_CONFIG: '/nonexistent/atalaya.json' })).toThrow(/does not exist/);
  });
});

describe('unknown keys in the configuration', () => {
  const load = (overrides: Record<string, unknown>) => () => loadConfig({ ...env }, overrides);

  it('suggests the known key nearest by edit distance, and none when no key is near', () => {
    expect(editDistance('registy', 'registry')).toBe(1);
    expect(editDistance('hots', 'host')).toBe(1); // two neighbours swapped count once
    expect(editDistance('WebRoot', 'webRoot')).toBe(0);
    expect(editDistance('mail', 'databases')).toBe(8);
    expect(nearest('registy', ['dns', 'registry', 'sites'])).toBe('registry');
    expect(nearest('webRot', ['webRoot', 'mailHost'])).toBe('webRoot');
    expect(nearest('colour', ['color', 'logo'])).toBe('color');
    expect(nearest('fr', ['es', 'en', 'ca'])).toBeUndefined();
    expect(nearest('zzzzzz', ['port', 'host', 'hosting'])).toBeUndefined();
  });

  it('stops on an unknown top-level key, naming it and the key meant', () => {
    expect(load({ hostng: { webRoot: '/srv' } })).toThrow(ConfigError);
    expect(load({ hostng: { webRoot: '/srv' } })).toThrow('Invalid configuration:\n  hostng: unknown key (did you mean hosting?)');
    expect(load({ zzzzzz: 1 })).toThrow(/ {2}zzzzzz: unknown key \(known: port, host, dataDir, /);
  });

  it('stops on an unknown key inside a section, by its full path, one line per key', () => {
    expect(load({ 'hosting.webRot': '/srv' })).toThrow('  hosting.webRot: unknown key (did you mean hosting.webRoot?)');
    expect(load({ 'company.colour': 'teal', 'hosting.mailRecords.mxx': 'mail.{zone}.' })).toThrow(
      'Invalid configuration:\n  company.colour: unknown key (did you mean company.color?)\n  hosting.mailRecords.mxx: unknown key (did you mean hosting.mailRecords.mx?)',
    );
  });

  it('stops on an unknown driver area, naming the area meant', () => {
    expect(load({ 'drivers.registy': { driver: 'epp' } })).toThrow('  drivers.registy: unknown key (did you mean drivers.registry?)');
  });

  it('stops on an unknown driver name, naming the driver meant or those there are', () => {
    expect(load({ 'drivers.registry': { driver: 'ep' } })).toThrow('  drivers.registry.driver: unknown driver "ep" (did you mean epp?)');
    expect(load({ 'drivers.mail': { driver: 'exim' } })).toThrow('  drivers.mail.driver: unknown driver "exim" (known: local, dovecot)');
  });

  it("stops on an option the area's driver does not take, at any depth of its block", () => {
    const epp = { driver: 'epp', host: 'epp.example', clientId: 'registrar1', password: 'secret-1' };
    expect(load({ 'drivers.registry': { ...epp, hots: 'epp.example' } })).toThrow(
      '  drivers.registry.hots: unknown key (did you mean drivers.registry.host?)',
    );
    expect(load({ 'drivers.mail': { driver: 'dovecot', mailRot: '/var/vmail' } })).toThrow(
      '  drivers.mail.mailRot: unknown key (did you mean drivers.mail.mailRoot?)',
    );
    const wordpress = { url: 'https://mirror.example/wp.tgz', sah256: 'a'.repeat(64) };
    expect(load({ 'drivers.installer.packages': { wordpress } })).toThrow(
      '  drivers.installer.packages.wordpress.sah256: unknown key (did you mean drivers.installer.packages.wordpress.sha256?)',
    );
    // Options of nginx without `driver: "nginx"` would leave the sites on the local driver.
    expect(load({ 'drivers.sites': { baseDir: '/etc/nginx/atalaya' } })).toThrow(
      '  drivers.sites.baseDir: unknown key (the local driver takes no options; drivers.sites.driver picks another: local, nginx)',
    );
  });

  it("takes every driver's own options and the name servers the domain area reads with any registry", () => {
    const config = loadConfig(
      { ...env },
      {
        'drivers.registry': { nameServers: ['ns1.example.net', 'ns2.example.net'] },
        'drivers.dns': { driver: 'powerdns', url: 'http://127.0.0.1:8081', apiKey: 'k', dsTtl: 3600 },
        'drivers.sites': { driver: 'nginx', baseDir: '/etc/nginx/atalaya' },
        'drivers.databases': { driver: 'mariadb', dsn: 'mysql://root@127.0.0.1:3306', prefix: 'p_' },
      },
    );
    expect(config.drivers.sites).toEqual({ driver: 'nginx', baseDir: '/etc/nginx/atalaya' });
  });
});
