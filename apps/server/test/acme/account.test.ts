import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime.ts';
import { openTestApp, type TestContext } from '../stores.ts';
import { type Pebble, pebbleMissing, startPebble } from './pebble-harness.ts';

const skip = pebbleMissing();

describe.skipIf(skip)("the panel's ACME account against pebble", () => {
  let pebble: Pebble;
  let ctx: TestContext;

  beforeAll(async () => {
    pebble = await startPebble({ httpPort: 1, dnsServer: '127.0.0.1:1' });
    ctx = await openTestApp('sqlite', {
      'acme.directoryUrl': pebble.directoryUrl,
      'acme.caFile': pebble.caFile,
      'acme.email': 'certs@tienda.test',
    });
  }, 30_000);
  afterAll(async () => {
    await ctx?.close();
    await pebble?.stop();
  });

  it('is registered once, with its key stored only sealed under the panel key, and found again by a second process', async () => {
    const { client } = await ctx.app.runtime.acme.account();
    const url = client.getAccountUrl();
    expect(url).toMatch(/^https:\/\/localhost:\d+\/my-account\//);
    const row = await ctx.store.selectFrom('acme_account').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ directory_url: pebble.directoryUrl, account_url: url });
    expect(row.key_sealed).not.toContain('PRIVATE KEY');
    expect(ctx.app.runtime.secrets.decrypt(row.key_sealed)).toContain('-----BEGIN PRIVATE KEY-----');

    const other = createRuntime(ctx.config, ctx.store);
    expect((await other.acme.account()).client.getAccountUrl()).toBe(url);
    expect(await ctx.store.selectFrom('acme_account').select('directory_url').execute()).toHaveLength(1);
  });

  it('refuses to start with a CA file that holds no certificate', () => {
    expect(() => createRuntime({ ...ctx.config, acme: { ...ctx.config.acme, caFile: '/etc/hostname' } }, ctx.store)).toThrow(
      /acme\.caFile: \/etc\/hostname holds no PEM certificate/,
    );
  });
});
