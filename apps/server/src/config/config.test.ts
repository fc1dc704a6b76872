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
    const config = loadConfig({ PORT: '9000', ATALAYA_DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://h/db', ATALAYA_COMPANY: 'Hostia', ATALAYA_COLOR: 'teal', ATALAYA_LANGUAGES: 'es,en' });
    expect(config).toMatchObject({ port: 9000, dataDir: '/tmp/x', databaseUrl: 'postgres://h/db', company: { name: 'Hostia', color: 'teal' }, languages: ['es', 'en'] });
  });

  it('stops on a bad value with a message that names the key and what is expected', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/port \(PORT\)/);
    expect(() => loadConfig({ ATALAYA_COLOR: 'chartreuse' })).toThrow(/company\.color \(ATALAYA_COLOR\)/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/databaseUrl \(DATABASE_URL\): a postgres:\/\/ URL/);
    expect(() => loadConfig({ ATALAYA_DEMO_PASSWORD: 'short' })).toThrow(/demoPassword.*at least 10 characters/);
  });

  it('refuses a named config file that does not exist', () => {
    expect(() => loadConfig({ ATALAYA_CONFIG: '/nonexistent/atalaya.json' })).toThrow(/does not exist/);
  });
});
