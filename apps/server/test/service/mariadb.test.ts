import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import type { DatabaseView, ServiceView } from '@atalaya/contract';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS } from '../../src/outbox/outbox.ts';
import type { Account } from '../fixtures.ts';
import { dropPrefixed, MARIADB_ADMIN, mariadbReachable } from '../mariadb.ts';
import { skipReason } from '../skip.ts';
import { openTestApp, type TestContext } from '../stores.ts';
import { api, serviceAccount } from './helpers.ts';

/**
 * The real MariaDB driver against the server on 127.0.0.1:3306 (root, no password), which the
 * machine runs for every engineer: every name carries a random prefix and is dropped afterwards.
 */
const ADMIN = MARIADB_ADMIN;
const reachable = await mariadbReachable();
skipReason(reachable ? null : 'MariaDB is not reachable at 127.0.0.1:3306 (root, no password): the MariaDB driver tests');

const prefix = `t${randomBytes(3).toString('hex')}_`;
const dsn = (port: number) => `mysql://root@127.0.0.1:${port}`;
const admin = () => mysql.createConnection(ADMIN);
const asUser = (user: string, password: string, database?: string) =>
  mysql.createConnection({ host: '127.0.0.1', port: 3306, user, password, database, connectTimeout: 3000 });
const hostsOf = async (user: string) => {
  const c = await admin();
  const [rows] = await c.query('SELECT Host AS host FROM mysql.user WHERE User = ? ORDER BY Host', [user]);
  await c.end();
  return (rows as { host: string }[]).map((r) => r.host);
};

const dropEverything = () => dropPrefixed(prefix);

describe.skipIf(!reachable)('the MariaDB databases driver', () => {
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  let db: DatabaseView;
  beforeAll(async () => {
    ctx = await openTestApp('sqlite', { 'drivers.databases': { driver: 'mariadb', dsn: dsn(3306), prefix } });
    acc = await serviceAccount(ctx);
    id = acc.items['tienda.test'];
  });
  afterAll(async () => {
    await ctx?.close();
    await dropEverything();
  });

  it('creates a real database and user that connects with its password and sees only its database', async () => {
    const other = await api<{ ddbb: DatabaseView }>(ctx, acc, 'admin', `/service/${acc.items['otra.test']}/ddbb/create/`, {
      password: 'Otra-pass-123',
    });
    const created = await api<{ ddbb: DatabaseView }>(ctx, acc, 'admin', `/service/${id}/ddbb/create/`, { password: 'Pa$$w0rd-inicial' });
    db = created.body.data.ddbb;
    expect(db.bbdd).toBe(`${prefix}tienda_test_${id}_1`);
    await ctx.app.runtime.outbox.drain();
    expect((await api<{ ddbb: DatabaseView[] }>(ctx, acc, 'admin', `/service/${id}/ddbb/list/`)).body.data.ddbb[0].state).toBe('ready');
    const c = await asUser(db.user, 'Pa$$w0rd-inicial', db.bbdd);
    await c.query('CREATE TABLE producto (id INT PRIMARY KEY, nombre VARCHAR(50))');
    await c.query("INSERT INTO producto VALUES (1, 'café ñandú')");
    const [rows] = await c.query('SHOW DATABASES');
    expect((rows as { Database: string }[]).map((r) => r.Database).sort()).toEqual([db.bbdd, 'information_schema'].sort());
    await expect(c.query(`SELECT * FROM \`${other.body.data.ddbb.bbdd}\`.x`)).rejects.toThrow(/denied/);
    await expect(c.query('SELECT * FROM mysql.user')).rejects.toThrow(/denied/);
    await c.end();
    expect(await hostsOf(db.user)).toEqual(['127.0.0.1', 'localhost']);
  });

  it('flips the host to % for external access, and back', async () => {
    await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/toggle/externalaccess/`);
    await ctx.app.runtime.outbox.drain();
    expect(await hostsOf(db.user)).toEqual(['%']);
    const c = await asUser(db.user, 'Pa$$w0rd-inicial', db.bbdd);
    await c.end();
    await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/toggle/externalaccess/`);
    await ctx.app.runtime.outbox.drain();
    expect(await hostsOf(db.user)).toEqual(['127.0.0.1', 'localhost']);
  });

  it('changes the password on the server: the old one stops working', async () => {
    await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/changepassword/`, { password: "N'uev@-clave`99" });
    await ctx.app.runtime.outbox.drain();
    await expect(asUser(db.user, 'Pa$$w0rd-inicial')).rejects.toThrow(/denied/);
    const c = await asUser(db.user, "N'uev@-clave`99", db.bbdd);
    await c.end();
  });

  it('dumps real SQL through mariadb-dump', async () => {
    const dump = await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/dump/`);
    expect(dump.status).toBe(200);
    expect(String(dump.headers['content-disposition'])).toContain(`filename="Backup-${db.bbdd}-`);
    expect(dump.raw).toContain('CREATE TABLE `producto`');
    expect(dump.raw).toContain('INSERT INTO `producto` VALUES');
    expect(dump.raw).toContain('café ñandú');
    expect(dump.raw).not.toContain('mysql.user');
  });

  it('loads a dump into an empty database of the same name, as a moved service gets its data on the new node', async () => {
    const drivers = ctx.app.runtime.drivers;
    const dump = await drivers.databases.dump(db.bbdd);
    const chunks: Buffer[] = [];
    for await (const chunk of dump) chunks.push(Buffer.from(chunk));
    const c = await admin();
    await c.query(`DROP TABLE \`${db.bbdd}\`.producto`);
    await c.end();
    await drivers.databases.restore(db.bbdd, Readable.from([Buffer.concat(chunks)]));
    const user = await asUser(db.user, "N'uev@-clave`99", db.bbdd);
    const [rows] = await user.query('SELECT nombre FROM producto ORDER BY id');
    await user.end();
    expect((rows as { nombre: string }[]).map((r) => r.nombre)).toContain('café ñandú');
  });

  it('measures the database from information_schema: rows written make its size and the service’s database space grow', async () => {
    const measure = async () => {
      await api(ctx, acc, 'admin', `/service/${id}/usage/refresh/`, {});
      await ctx.app.runtime.outbox.drain();
      const list = (await api<{ ddbb: DatabaseView[] }>(ctx, acc, 'admin', `/service/${id}/ddbb/list/`)).body.data.ddbb;
      const service = (await api<{ service: ServiceView }>(ctx, acc, 'admin', `/service/${id}/`)).body.data.service;
      return { database: list.find((d) => d.id === db.id)!.usage, service: service.usage.spaceBbdd.used };
    };
    const before = await measure();
    expect(before.database).toBeGreaterThan(0);
    const c = await asUser(db.user, "N'uev@-clave`99", db.bbdd);
    await c.query('CREATE TABLE registro (id INT PRIMARY KEY, texto VARCHAR(600))');
    for (let batch = 0; batch < 10; batch++) {
      const rows = Array.from({ length: 400 }, (_, i) => [batch * 400 + i, 'x'.repeat(500)]);
      await c.query('INSERT INTO registro VALUES ?', [rows]);
    }
    // The server's own statistics are what information_schema reports; brought up to date here.
    await c.query('ANALYZE TABLE registro');
    await c.end();
    const after = await measure();
    expect(after.database).toBeGreaterThan(before.database + 1_000_000);
    expect(after.service).toBe(after.database);
  });

  it('removes the user and the database on delete', async () => {
    await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/delete/`);
    await ctx.app.runtime.outbox.drain();
    expect(await hostsOf(db.user)).toEqual([]);
    const c = await admin();
    const [rows] = await c.query('SELECT schema_name FROM information_schema.schemata WHERE schema_name = ?', [db.bbdd]);
    await c.end();
    expect(rows).toEqual([]);
    await expect(asUser(db.user, "N'uev@-clave`99")).rejects.toThrow();
  });
});

/** A loopback port that refuses connections until `open()` forwards it to the real server. */
async function switchablePort() {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(3306, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    port,
    open: () => new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r)),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => proxy.close(r));
    },
  };
}

describe.skipIf(!reachable)('the MariaDB driver when the server is down mid-change', () => {
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  let gate: Awaited<ReturnType<typeof switchablePort>>;
  beforeAll(async () => {
    gate = await switchablePort();
    ctx = await openTestApp('sqlite', { 'drivers.databases': { driver: 'mariadb', dsn: dsn(gate.port), prefix } });
    acc = await serviceAccount(ctx);
    id = acc.items['tienda.test'];
  });
  afterAll(async () => {
    await ctx?.close();
    await gate?.close();
    await dropEverything();
  });

  const listed = async () => (await api<{ ddbb: DatabaseView[] }>(ctx, acc, 'admin', `/service/${id}/ddbb/list/`)).body.data.ddbb;
  const retryNow = () => ctx.store.updateTable('job').set({ next_at: 0 }).where('status', '=', 'pending').execute();

  it('keeps the change pending and retried while the server is unreachable, then applies it once it is back', async () => {
    const created = await api<{ ddbb: DatabaseView }>(ctx, acc, 'admin', `/service/${id}/ddbb/create/`, { password: 'Espera-1234' });
    const jobId = created.body.system.job!;
    await ctx.app.runtime.outbox.drain();
    await retryNow();
    await ctx.app.runtime.outbox.drain();
    const job = await ctx.store.selectFrom('job').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', attempts: 2 });
    expect(job.last_error).toMatch(/ECONNREFUSED/);
    const [pending] = await listed();
    expect(pending).toMatchObject({ bbdd: created.body.data.ddbb.bbdd, state: 'pending', job: jobId });
    // The panel's own record and its secret are intact: the dump says "not ready" instead of failing hard.
    expect((await api(ctx, acc, 'admin', `/service/${id}/ddbb/${pending.id}/dump/`)).status).toBe(409);

    await gate.open();
    await retryNow();
    await ctx.app.runtime.outbox.drain();
    expect((await listed())[0].state).toBe('ready');
    const c = await asUser(pending.user, 'Espera-1234', pending.bbdd);
    await c.end();
  });

  it('shows a change that ran out of retries as failed, and a later change brings it back', async () => {
    await gate.close();
    const [db] = await listed();
    const toggled = await api<{ ddbb: DatabaseView }>(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/toggle/externalaccess/`);
    await ctx.store
      .updateTable('job')
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where('id', '=', toggled.body.system.job!)
      .execute();
    await ctx.app.runtime.outbox.drain();
    expect((await listed())[0]).toMatchObject({ state: 'failed', externalAccess: true });
    await gate.open();
    await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/changepassword/`, { password: 'Vuelta-1234' });
    await ctx.app.runtime.outbox.drain();
    expect((await listed())[0].state).toBe('ready');
    expect(await hostsOf(db.user)).toEqual(['%']);
  });
});
