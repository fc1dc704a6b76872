import net from 'node:net';
import { translate } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acmeClient } from '../../src/drivers/acme/client.ts';
import { CaUnreachable } from '../../src/drivers/acme/unreachable.ts';
import { ISSUE_JOB } from '../../src/modules/sites/acme/issue.ts';
import { PermanentJobError } from '../../src/outbox/permanent.ts';
import { createAccount, send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

/** A loopback port nothing listens on: one the system gave out and took back. */
async function closedPort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A free certificate ordered from a certificate authority that cannot be reached (decision 055):
 * the real app, its ACME client and its outbox, with `acme.directoryUrl` on a closed loopback port.
 */
describeStores('a certificate authority that cannot be reached, on %s', (kind) => {
  let ctx: TestContext;
  let origin = '';
  beforeAll(async () => {
    origin = `https://127.0.0.1:${await closedPort()}`;
    ctx = await openTestApp(kind, { 'acme.directoryUrl': `${origin}/dir` });
  });
  afterAll(() => ctx.close());

  const job = (id: number) => ctx.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('fails the order at its first try, not retried as a passing failure, with the reason shown translated on the site’s row', async () => {
    const shop = await createAccount(ctx.store, {
      users: { owner: 'all=write' },
      items: [{ reference: 'tienda.test', service: 'normal' }],
    });
    const owner = await shop.as('owner');
    const service = shop.items['tienda.test'];
    const site = (await send(ctx.app, 'POST', `/service/${service}/subdomain/create/`, owner, { subDomain: 'www', folder: 'www' })).body
      .data.subdomain;
    await ctx.app.runtime.outbox.drain();
    const ordered = await send(ctx.app, 'POST', `/service/${service}/subdomain/${site.id}/acme/`, owner, { active: '1', wildcard: '0' });
    expect(ordered.status).toBe(200);
    const orderJob = ordered.body.system.job!;
    await ctx.app.runtime.outbox.drain();

    const reason = `the certificate authority at ${origin} cannot be reached (ECONNREFUSED)`;
    expect(await job(orderJob)).toMatchObject({ kind: ISSUE_JOB, status: 'failed', attempts: 1, last_error: reason });

    const listed = await send(ctx.app, 'GET', `/service/${service}/subdomain/list/`, owner);
    const row = (listed.body.data.subdomains as { id: number; ssl: { acme: { status: string; error: string | null } } }[]).find(
      (s) => s.id === site.id,
    );
    expect(row?.ssl.acme).toMatchObject({
      status: 'failed',
      // The panel's default language.
      error: `No se puede contactar con la autoridad de certificación en ${origin} (ECONNREFUSED). Vuelve a pedir el certificado cuando responda.`,
    });
    const stored = await ctx.store.selectFrom('site').select('acme_error').where('id', '=', site.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.acme_error!)).toEqual({
      key: 'sites.acme_error_unreachable',
      params: { url: origin, detail: 'ECONNREFUSED' },
    });
  }, 30_000);
});

it('is a failure retrying cannot change, translated in es, en and ca', () => {
  const error = new CaUnreachable('https://acme.invalid', 'ENOTFOUND');
  expect(error).toBeInstanceOf(PermanentJobError);
  expect(translate('es', error.key, error.params)).toBe(
    'No se puede contactar con la autoridad de certificación en https://acme.invalid (ENOTFOUND). Vuelve a pedir el certificado cuando responda.',
  );
  expect(translate('ca', error.key, error.params)).toMatch(
    /^No es pot contactar amb l’autoritat de certificació a https:\/\/acme\.invalid/,
  );
});

it('names a directory whose host does not resolve at once, instead of retrying it for over a minute', async () => {
  const acme = await acmeClient();
  const key = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
  const client = new acme.Client({ directoryUrl: 'https://acme.invalid/directory', accountKey: key });
  const error = await client.getTermsOfServiceUrl().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CaUnreachable);
  expect((error as CaUnreachable).message).toMatch(
    /^the certificate authority at https:\/\/acme\.invalid cannot be reached \((ENOTFOUND|EAI_AGAIN)\)$/,
  );
}, 20_000);
