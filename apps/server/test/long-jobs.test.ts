import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createAccount, send } from './fixtures.ts';
import { describeStores, openTestStore } from './stores.ts';

/** A CA that accepts connections and never answers: an ACME order against it hangs until aborted. */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    // Reads (and ignores) the request, so a client that gives up is seen closing.
    socket.resume();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/directory`,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The whole server with its worker on, as `npm start` runs it: one realm's free certificate hangs
 * on a CA that never answers while another realm edits its DNS zone.
 */
describeStores('a long job on %s', (kind) => {
  let ca: Awaited<ReturnType<typeof silentServer>>;
  let store: Awaited<ReturnType<typeof openTestStore>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let closed = false;
  beforeAll(async () => {
    ca = await silentServer();
    store = await openTestStore(kind, { 'acme.directoryUrl': ca.url });
    app = await buildApp({ config: store.config, store: store.store });
  });
  afterAll(async () => {
    if (!closed) await app.close();
    await store.cleanup();
    await ca.close();
  });
  const job = (id: number) => store.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const until = async (check: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return true;
      await pause(10);
    }
    return false;
  };
  let acmeJob = 0;

  it("applies another realm's DNS change within a second while an ACME order hangs on a CA that never answers", async () => {
    const shop = await createAccount(store.store, {
      users: { owner: 'all=write' },
      items: [{ reference: 'tienda.test', service: 'normal' }],
    });
    const owner = await shop.as('owner');
    const service = shop.items['tienda.test'];
    const site = await send(app, 'POST', `/service/${service}/subdomain/create/`, owner, { subDomain: 'www', folder: 'www' });
    const ordered = await send(app, 'POST', `/service/${service}/subdomain/${site.body.data.subdomain.id}/acme/`, owner, {
      active: '1',
      wildcard: '0',
    });
    expect(ordered.status).toBe(200);
    acmeJob = ordered.body.system.job!;
    // The order is under way: the worker runs it and its request sits on the silent CA.
    expect(await until(async () => (await job(acmeJob)).status === 'running' && ca.connections() > 0, 10_000)).toBe(true);

    const zone = await createAccount(store.store, {
      users: { w: 'all=write' },
      items: [{ reference: 'zona.es', domain: true, service: 'normal' }],
    });
    const id = zone.items['zona.es'];
    const w = await zone.as('w');
    // The new realm's own set-up jobs run first; the change is timed from its request.
    expect(
      await until(
        async () =>
          (await store.store.selectFrom('job').select('id').where('item_id', '=', id).where('status', '!=', 'done').execute()).length === 0,
        10_000,
      ),
    ).toBe(true);
    const asked = Date.now();
    const created = await send(app, 'POST', `/service/${id}/dns/create/`, w, { type: 'A', zona: 'liveness', value: '192.0.2.10' });
    expect(created.status, JSON.stringify(created.body.system)).toBe(200);
    const applied = () =>
      store.store.selectFrom('dns_zone').select(['version', 'applied_version']).where('item_id', '=', id).executeTakeFirstOrThrow();
    expect(
      await until(async () => {
        const z = await applied();
        return z.applied_version === z.version;
      }, 3000),
    ).toBe(true);
    expect(Date.now() - asked).toBeLessThan(1000);
    expect((await job(acmeJob)).status).toBe('running');
  }, 30_000);

  it('shuts down within the grace while the ACME job still hangs, aborting its request and leaving the job to its lease', async () => {
    expect(ca.connections()).toBeGreaterThan(0);
    const started = Date.now();
    await app.close();
    closed = true;
    expect(Date.now() - started).toBeLessThan(8000);
    // The job's signal reached acme-client's request: its connection to the CA is closed.
    expect(await until(async () => ca.connections() === 0, 3000)).toBe(true);
    const left = await job(acmeJob);
    expect(left.status).toBe('running');
    expect(left.attempts).toBe(0);
  }, 20_000);
});
