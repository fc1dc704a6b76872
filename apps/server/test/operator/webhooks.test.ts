import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { emitEvent } from '../../src/kernel/events.ts';
import { enqueue } from '../../src/outbox/outbox.ts';
import { PermanentJobError } from '../../src/outbox/permanent.ts';
import { runAdmin } from '../admin.ts';
import { createAccount } from '../fixtures.ts';
import { eventually } from '../nodes/processes.ts';
import { describeStores, openTestStore } from '../stores.ts';
import { call, operatorToken } from './helpers.ts';
import { close, endlessReceiver, listen, receiver, verify } from './receiver.ts';

describeStores('signed webhooks on %s', (kind) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let cleanup: () => Promise<void>;
  let token: string;
  let realm: string;
  const store = () => app.runtime.store;
  /** Runs the outbox until the delivery is settled, waiting out its back-off as the worker would. */
  async function settle(deliveryId: number, seconds = 20) {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      await app.runtime.outbox.drain();
      const row = await store().selectFrom('webhook_delivery').select('status').where('id', '=', deliveryId).executeTakeFirstOrThrow();
      if (row.status !== 'pending' || Date.now() > until) return row.status;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const lastDelivery = async () =>
    (await store().selectFrom('webhook_delivery').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    const opened = await openTestStore(kind);
    app = await buildApp({
      config: opened.config,
      store: opened.store,
      worker: false,
      testJobs: () => ({
        'test.refused': async () => {
          throw new PermanentJobError('the backend refused the name');
        },
      }),
    });
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
    token = await operatorToken({ store: opened.store });
    realm = (await createAccount(opened.store, { users: {}, items: [{ reference: 'hook-uno.es', service: 'normal' }] })).realm;
  });
  afterAll(() => cleanup());

  it('delivers a signed event that the receiver refuses twice: three attempts logged, one success, every signature valid', async () => {
    const { server, received } = receiver([500, 500]);
    const port = await listen(server);
    try {
      const created = await call(app, 'POST', 'webhooks/create/', token, {
        url: `http://127.0.0.1:${port}/hook`,
        events: ['service.suspended'],
      });
      expect(created.status).toBe(200);
      const { secret, id } = created.body.data;
      expect(secret).toMatch(/^whsec_/);
      expect((await call(app, 'POST', 'item/suspend/', token, { realm, reference: 'hook-uno.es' })).status).toBe(200);
      const delivery = await lastDelivery();
      expect(await settle(delivery)).toBe('delivered');
      expect(received).toHaveLength(3);
      for (const r of received) {
        expect(verify(secret, r.headers['atalaya-signature'] as string, r.body)).toBe(true);
        expect(r.headers['atalaya-event']).toBe('service.suspended');
      }
      expect(JSON.parse(received[0].body)).toMatchObject({ event: 'service.suspended', data: { realm, reference: 'hook-uno.es' } });
      // A body changed on the way fails the check.
      expect(verify(secret, received[0].headers['atalaya-signature'] as string, received[0].body.replace('hook-uno', 'hook-dos'))).toBe(
        false,
      );
      const attempts = await store()
        .selectFrom('webhook_attempt')
        .select('http_status')
        .where('delivery_id', '=', delivery)
        .orderBy('id')
        .execute();
      expect(attempts.map((a) => a.http_status)).toEqual([500, 500, 200]);
      const log = await runAdmin(app.runtime, 'webhooks', []);
      expect(log).toContain(`endpoint ${id}\thttp://127.0.0.1:${port}/hook\tservice.suspended`);
      expect(log).toMatch(new RegExp(`delivery ${delivery}\\tservice.suspended\\tdelivered\\t.*\\t3 attempt\\(s\\)`));
      expect(log.match(/ {2}attempt\t.*\t500\t/g)).toHaveLength(2);
      expect(log.match(/ {2}attempt\t.*\t200\tseen/g)).toHaveLength(1);

      expect(await runAdmin(app.runtime, 'webhooks', ['resend', String(delivery)])).toBe(`Delivery ${delivery} queued again`);
      expect(await settle(delivery)).toBe('delivered');
      expect(received).toHaveLength(4);
      expect(verify(secret, received[3].headers['atalaya-signature'] as string, received[3].body)).toBe(true);
      expect((await call(app, 'POST', `webhooks/${id}/delete/`, token, {})).status).toBe(200);
    } finally {
      await close(server);
    }
  });

  it("keeps a stopped receiver's delivery waiting and sends it when the receiver is back", async () => {
    const first = receiver([]);
    const port = await listen(first.server);
    await close(first.server);
    const created = await call(app, 'POST', 'webhooks/create/', token, {
      url: `http://127.0.0.1:${port}/`,
      events: ['service.unsuspended'],
    });
    await call(app, 'POST', 'item/unsuspend/', token, { realm, reference: 'hook-uno.es' });
    const delivery = await lastDelivery();
    await app.runtime.outbox.drain();
    const unreachable = await store().selectFrom('webhook_attempt').selectAll().where('delivery_id', '=', delivery).execute();
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0].http_status).toBeNull();
    const back = receiver([]);
    await listen(back.server, port);
    try {
      expect(await settle(delivery)).toBe('delivered');
      expect(back.received).toHaveLength(1);
      expect(verify(created.body.data.secret, back.received[0].headers['atalaya-signature'] as string, back.received[0].body)).toBe(true);
    } finally {
      await close(back.server);
      await call(app, 'POST', `webhooks/${created.body.data.id}/delete/`, token, {});
    }
  });

  it('tells the endpoints that asked for job.failed when a backend change fails for good', async () => {
    const { server, received } = receiver([]);
    const port = await listen(server);
    try {
      const created = await call(app, 'POST', 'webhooks/create/', token, { url: `http://127.0.0.1:${port}/`, events: ['job.failed'] });
      const jobId = await enqueue(store(), 'test.refused', {});
      await app.runtime.outbox.drain();
      expect(await settle(await lastDelivery())).toBe('delivered');
      expect(JSON.parse(received[0].body)).toMatchObject({
        event: 'job.failed',
        data: { job: jobId, kind: 'test.refused', error: 'the backend refused the name' },
      });
      expect(verify(created.body.data.secret, received[0].headers['atalaya-signature'] as string, received[0].body)).toBe(true);
    } finally {
      await close(server);
    }
  });

  it("reads only the start of a receiver's answer without end and closes the connection, logging that start", async () => {
    const cap = 256 * 1024 * 1024;
    const { server, state } = endlessReceiver(cap);
    const port = await listen(server);
    try {
      const created = await call(app, 'POST', 'webhooks/create/', token, { url: `http://127.0.0.1:${port}/`, events: ['domain.expiring'] });
      await emitEvent(store(), 'domain.expiring', { name: 'sin-fin.es', days: 7 });
      const delivery = await lastDelivery();
      expect(await settle(delivery)).toBe('delivered');
      await eventually(async () => state.closed, 10_000, 'the panel closing the connection');
      // Socket buffers on both ends hold a few MB at most: a panel reading on would have taken it all.
      expect(state.written).toBeLessThan(32 * 1024 * 1024);
      const attempt = await store().selectFrom('webhook_attempt').selectAll().where('delivery_id', '=', delivery).executeTakeFirstOrThrow();
      expect(attempt).toMatchObject({ http_status: 200, answer: state.start.slice(0, 500) });
      await call(app, 'POST', `webhooks/${created.body.data.id}/delete/`, token, {});
    } finally {
      await close(server);
    }
  });

  it('delivers to a URL with a user and password as Basic authorization, and never shows them back', async () => {
    const { server, received } = receiver([]);
    const port = await listen(server);
    try {
      const url = `http://billing:s%40cret-9@127.0.0.1:${port}/hook`;
      const shown = `http://***:***@127.0.0.1:${port}/hook`;
      const created = await call(app, 'POST', 'webhooks/create/', token, { url, events: ['domain.expiring'] });
      expect(created.status).toBe(200);
      expect(created.body.data.url).toBe(shown);
      const listed = (await call(app, 'GET', 'webhooks/', token)).body.data.webhooks as { id: number; url: string }[];
      expect(listed.find((w) => w.id === created.body.data.id)?.url).toBe(shown);
      expect(JSON.stringify(listed)).not.toContain('cret-9');
      await emitEvent(store(), 'domain.expiring', { name: 'con-clave.es', days: 1 });
      expect(await settle(await lastDelivery())).toBe('delivered');
      expect(received).toHaveLength(1);
      expect(received[0].headers.authorization).toBe(`Basic ${Buffer.from('billing:s@cret-9').toString('base64')}`);
      const log = await runAdmin(app.runtime, 'webhooks', []);
      expect(log).toContain(`endpoint ${created.body.data.id}\t${shown}\tdomain.expiring`);
      expect(log).not.toContain('cret-9');
      await call(app, 'POST', `webhooks/${created.body.data.id}/delete/`, token, {});
    } finally {
      await close(server);
    }
  });

  it('lists and removes endpoints, and refuses an event that does not exist with 400', async () => {
    const list = await call(app, 'GET', 'webhooks/', token);
    expect(list.status).toBe(200);
    expect(list.body.data.webhooks.every((w: { secret?: string }) => w.secret === undefined)).toBe(true);
    const bad = await call(app, 'POST', 'webhooks/create/', token, { url: 'http://127.0.0.1:1/', events: ['domain.stolen'] });
    expect(bad.status).toBe(400);
    expect((await call(app, 'POST', 'webhooks/999999/delete/', token, {})).status).toBe(404);
  });
});
