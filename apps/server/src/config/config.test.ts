import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
