import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { eppSettings } from '../../src/drivers/registry/epp/options.ts';
import { createRuntime } from '../../src/runtime.ts';
import { openStore } from '../../src/store/db.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'epp-options-'));
for (const name of ['client.crt', 'client.key', 'ca.crt']) writeFileSync(path.join(dir, name), `${name}\n`);

const valid = {
  host: 'epp.registry.example',
  clientId: 'registrar1',
  password: 'secret-pw',
  certFile: path.join(dir, 'client.crt'),
  keyFile: path.join(dir, 'client.key'),
  caFile: path.join(dir, 'ca.crt'),
};

describe('the epp driver options', () => {
  it('take the defaults of port 700, two sessions and no rate limit, and read the three PEM files', () => {
    const settings = eppSettings(valid);
    expect(settings).toMatchObject({ port: 700, sessions: 2, commandsPerMinute: 0, registrantChange: 'update' });
    expect(settings.cert.toString()).toBe('client.crt\n');
    expect(settings.ca.toString()).toBe('ca.crt\n');
  });

  it.each([
    ['host', { host: '' }],
    ['port', { port: 70000 }],
    ['clientId', { clientId: 'ab' }],
    ['password', { password: 'short' }],
    ['sessions', { sessions: 0 }],
    ['commandsPerMinute', { commandsPerMinute: -1 }],
    ['certFile', { certFile: 'relative.crt' }],
    ['hostModel', { hostModel: 'hosts' }],
    ['registrantChange', { registrantChange: 'always' }],
  ])('refuse a wrong %s, naming the key', (key, change) => {
    expect(() => eppSettings({ ...valid, ...change })).toThrow(`drivers.registry.${key}:`);
  });

  it('refuse a missing key, naming it', () => {
    const { caFile: _, ...rest } = valid;
    expect(() => eppSettings(rest)).toThrow('drivers.registry.caFile:');
  });

  it('refuse an unknown key, naming it', () => {
    expect(() => eppSettings({ ...valid, sesions: 3 })).toThrow('sesions');
  });

  it.each(['certFile', 'keyFile', 'caFile'] as const)('stop at a %s that cannot be read', (key) => {
    expect(() => eppSettings({ ...valid, [key]: path.join(dir, 'missing.pem') })).toThrow(
      `drivers.registry.${key}: cannot read ${path.join(dir, 'missing.pem')} (ENOENT)`,
    );
  });

  it('stop the start of a runtime configured with the epp driver and a missing certificate', async () => {
    const config = loadConfig({ ATALAYA_CONFIG: '' } as NodeJS.ProcessEnv, {
      dataDir: dir,
      'drivers.registry': { driver: 'epp', ...valid, certFile: path.join(dir, 'gone.crt') },
    });
    const store = await openStore({ ...config, databaseUrl: undefined, dataDir: mkdtempSync(path.join(tmpdir(), 'epp-store-')) });
    try {
      expect(() => createRuntime(config, store)).toThrow('drivers.registry.certFile: cannot read');
    } finally {
      await store.destroy();
    }
  });

  it('give a runtime configured with the epp driver an epp registry, which connects only when used', async () => {
    const config = loadConfig({ ATALAYA_CONFIG: '' } as NodeJS.ProcessEnv, {
      dataDir: dir,
      'drivers.registry': { driver: 'epp', ...valid },
    });
    const store = await openStore({ ...config, databaseUrl: undefined, dataDir: mkdtempSync(path.join(tmpdir(), 'epp-store-')) });
    try {
      const runtime = createRuntime(config, store);
      expect(runtime.drivers.registry.close).toBeTypeOf('function');
      await runtime.close();
    } finally {
      await store.destroy();
    }
  });
});
