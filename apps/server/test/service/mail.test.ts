import type { AutoForm, MailAccount, MailAlias, MailConfig } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, grant } from '../../src/modules/provisioning/accounts.ts';
import { insertChild } from '../../src/modules/service/jobs.ts';
import { verifyPassword } from '../../src/passwords.ts';
import { now } from '../../src/store/db.ts';
import { describeStores } from '../stores.ts';
import { api, localObject, openServiceSuite, type ServiceSuite } from './helpers.ts';

describeStores('mail accounts on %s', (kind) => {
  let { ctx, acc, id, other } = {} as ServiceSuite & { other: number };
  beforeAll(async () => {
    ({ ctx, acc, id } = await openServiceSuite(kind, { mailAccounts: 3 }));
    other = acc.items['otra.test'];
  });
  afterAll(() => ctx.close());

  const create = (name: string, password = 'Secr3t-pass!', user = 'admin', item = id) =>
    api<{ correo: MailAccount }>(ctx, acc, user, `/service/${item}/correo/create/`, { name, password });

  it('creates an account, keeps its password encrypted and applies it to the mail backend', async () => {
    const { status, body } = await create('Ventas');
    expect(status).toBe(200);
    expect(body.data.correo).toMatchObject({ user: 'ventas@tienda.test', name: 'ventas', eliminable: true, state: 'pending' });
    expect(body.system.job).toBeGreaterThan(0);
    const row = await ctx.store.selectFrom('mail_account').selectAll().where('id', '=', body.data.correo.id).executeTakeFirstOrThrow();
    expect(row.password_secret).not.toContain('Secr3t');
    await ctx.app.runtime.outbox.drain();
    const box = await localObject(ctx, 'mail.box', 'ventas@tienda.test');
    expect(await verifyPassword(box.hash, 'Secr3t-pass!')).toBe(true);
    const list = await api<{ correo: MailAccount[]; config: MailConfig }>(ctx, acc, 'reader', `/service/${id}/correo/list/`);
    expect(list.body.data.correo.map((c) => [c.user, c.state])).toEqual([['ventas@tienda.test', 'ready']]);
    expect(list.body.data.config).toEqual({
      reference: 'tienda.test',
      imapSsl: 'imap.example.net',
      smtpSsl: 'smtp.example.net',
      imap: 'imap.tienda.test',
      smtp: 'smtp.tienda.test',
    });
  });

  it('refuses a missing or invalid name, a short password, a taken name and more than the limit', async () => {
    const missing = await create('', 'Secr3t-pass!');
    expect(missing.body.system.inputs).toEqual(['name']);
    expect(missing.body.system.errors).toEqual(['Campo obligatorio']);
    expect((await create('a b')).body.system.inputs).toEqual(['name']);
    expect((await create('..x')).status).toBe(400);
    const short = await create('info', 'short');
    expect(short.body.system.inputs).toEqual(['password']);
    const taken = await create('ventas');
    expect(taken.status).toBe(400);
    expect(taken.body.system.errors[0]).toBe('Este servicio ya tiene uno con ese nombre');
    expect((await create('info')).status).toBe(200);
    expect((await create('hola')).status).toBe(200);
    const limit = await create('cuatro');
    expect(limit.body.system.errors[0]).toBe('Has alcanzado el máximo de 3 cuentas de correo');
  });

  it('shows the password again only to users who may change mail accounts', async () => {
    const [account] = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo;
    expect((await api(ctx, acc, 'admin', `/service/${id}/correo/${account.id}/password/`)).body.data).toEqual({
      password: 'Secr3t-pass!',
    });
    expect((await api(ctx, acc, 'reader', `/service/${id}/correo/${account.id}/password/`)).status).toBe(403);
    expect((await api(ctx, acc, 'nothing', `/service/${id}/correo/${account.id}/password/`)).status).toBe(404);
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/correo/${account.id}/password/`)).status).toBe(404);
  });

  it('hides the accounts and aliases from a user who may not see the mail service, whatever else they hold', async () => {
    const [account] = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo;
    acc.users.hiddenmail = (await createUser(ctx.store, acc.realm, 'hiddenmail', 'test-password-1')).id;
    await grant(ctx.store, acc.realm, 'hiddenmail', 'tienda.test', {
      servicemail: 'disabled',
      servicemail_accounts: 'write',
      servicemail_alias: 'write',
    });
    for (const url of [`/service/${id}/correo/list/`, `/service/${id}/correo/${account.id}/password/`, `/service/${id}/alias/list/`]) {
      expect((await api(ctx, acc, 'hiddenmail', url)).status, url).toBe(404);
    }
    expect((await api(ctx, acc, 'hiddenmail', `/service/${id}/correo/create/`, { name: 'oculta', password: 'Secr3t-pass!' })).status).toBe(
      404,
    );
    expect((await api(ctx, acc, 'mailonly', `/service/${id}/correo/list/`)).status).toBe(200);
  });

  it('changes the password, on the backend too', async () => {
    const [account] = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo;
    const { status, body } = await api(ctx, acc, 'admin', `/service/${id}/correo/${account.id}/changepassword/`, {
      password: 'N3w-password?',
    });
    expect(status).toBe(200);
    expect(body.system.info[0]).toBe('Contraseña cambiada');
    await ctx.app.runtime.outbox.drain();
    const box = await localObject(ctx, 'mail.box', account.user);
    expect(await verifyPassword(box.hash, 'N3w-password?')).toBe(true);
    expect(
      (await api(ctx, acc, 'reader', `/service/${id}/correo/${account.id}/changepassword/`, { password: 'N3w-password?' })).status,
    ).toBe(403);
    expect((await api(ctx, acc, 'admin', `/service/${id}/correo/${account.id}/changepassword/`, { password: '' })).status).toBe(400);
  });

  it('answers webmail form data with the account credentials', async () => {
    const [account] = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo;
    const { body } = await api<AutoForm>(ctx, acc, 'admin', `/service/${id}/correo/${account.id}/login/`);
    expect(body.data).toMatchObject({ target: '_blank', method: 'post', action: ctx.config.hosting.webmailUrl });
    expect(body.data.inputs).toMatchObject({ _user: account.user, _pass: 'N3w-password?' });
    expect((await api(ctx, acc, 'admin', `/service/${id}/correo/${account.id}/`)).body.data.correo).toMatchObject({ id: account.id });
  });

  it("answers 404 for another service's account ids", async () => {
    const mine = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo[0];
    for (const path of ['', 'password/', 'login/', 'delete/']) {
      expect((await api(ctx, acc, 'admin', `/service/${other}/correo/${mine.id}/${path}`)).status).toBe(404);
    }
    expect((await api(ctx, acc, 'admin', `/service/${other}/correo/${mine.id}/changepassword/`, { password: 'Whatever-123' })).status).toBe(
      404,
    );
    expect((await api(ctx, acc, 'admin', `/service/${acc.items['aparcado.test']}/correo/list/`)).status).toBe(404);
  });

  it('deletes: the row shows as deleting until the backend let go, then disappears', async () => {
    const list = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo;
    const target = list.find((a) => a.name === 'hola')!;
    expect((await api(ctx, acc, 'reader', `/service/${id}/correo/${target.id}/delete/`)).status).toBe(403);
    const del = await api(ctx, acc, 'admin', `/service/${id}/correo/${target.id}/delete/`);
    expect(del.body.system.info[0]).toBe('Cuenta de correo eliminada');
    const during = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo;
    expect(during.find((a) => a.id === target.id)).toMatchObject({ state: 'deleting', eliminable: false });
    expect((await api(ctx, acc, 'admin', `/service/${id}/correo/${target.id}/delete/`)).status).toBe(404);
    await ctx.app.runtime.outbox.drain();
    const after = (await api<{ correo: MailAccount[] }>(ctx, acc, 'admin', `/service/${id}/correo/list/`)).body.data.correo;
    expect(after.map((a) => a.name)).toEqual(['info', 'ventas']);
    expect(await localObject(ctx, 'mail.box', 'hola@tienda.test')).toBeUndefined();
  });
});

describeStores('mail aliases on %s', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  beforeAll(async () => ({ ctx, acc, id } = await openServiceSuite(kind)));
  afterAll(() => ctx.close());

  const create = (name: string, target: string, user = 'admin') =>
    api<{ alias: MailAlias }>(ctx, acc, user, `/service/${id}/alias/create/`, { name, target });

  it('creates an alias with comma-separated targets and applies it', async () => {
    const { status, body } = await create('pedidos', 'ana@tienda.test, Luis@Example.com');
    expect(status).toBe(200);
    expect(body.data.alias).toMatchObject({
      alias: 'pedidos',
      referencePunycode: 'tienda.test',
      name: 'ana@tienda.test, luis@example.com',
      targets: ['ana@tienda.test', 'luis@example.com'],
    });
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'mail.alias', 'pedidos@tienda.test')).toEqual({ targets: ['ana@tienda.test', 'luis@example.com'] });
  });

  it('accepts an empty name as the catch-all', async () => {
    expect((await create('', 'buzon@tienda.test')).body.data.alias.alias).toBe('');
  });

  it('refuses invalid targets, no target, a taken name, and a name an account uses', async () => {
    const invalid = await create('x', 'ana@tienda.test, no-es-correo');
    expect(invalid.body.system.inputs).toEqual(['target']);
    expect(invalid.body.system.errors[0]).toBe('Correo electrónico no válido');
    const none = await create('x', ' , ');
    expect(none.body.system.errors[0]).toBe('Indica al menos un destino');
    expect((await create('pedidos', 'a@b.es')).body.system.errors[0]).toBe('Este servicio ya tiene uno con ese nombre');
    await api(ctx, acc, 'admin', `/service/${id}/correo/create/`, { name: 'buzon', password: 'Secr3t-pass!' });
    expect((await create('buzon', 'a@b.es')).status).toBe(400);
    expect((await api(ctx, acc, 'admin', `/service/${id}/correo/create/`, { name: 'pedidos', password: 'Secr3t-pass!' })).status).toBe(400);
  });

  it('saves new targets, and refuses readers, hidden areas and foreign ids', async () => {
    const list = (await api<{ alias: MailAlias[] }>(ctx, acc, 'reader', `/service/${id}/alias/list/`)).body.data.alias;
    const pedidos = list.find((a) => a.alias === 'pedidos')!;
    const saved = await api<{ alias: MailAlias }>(ctx, acc, 'admin', `/service/${id}/alias/${pedidos.id}/save/`, {
      target: 'nuevo@tienda.test',
    });
    expect(saved.body.data.alias.targets).toEqual(['nuevo@tienda.test']);
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'mail.alias', 'pedidos@tienda.test')).toEqual({ targets: ['nuevo@tienda.test'] });
    expect((await api(ctx, acc, 'reader', `/service/${id}/alias/${pedidos.id}/save/`, { target: 'a@b.es' })).status).toBe(403);
    expect((await api(ctx, acc, 'noalias', `/service/${id}/alias/list/`)).status).toBe(404);
    expect((await api(ctx, acc, 'noalias', `/service/${id}/correo/list/`)).status).toBe(200);
    expect((await api(ctx, acc, 'admin', `/service/${acc.items['otra.test']}/alias/${pedidos.id}/`)).status).toBe(404);
    expect((await api(ctx, acc, 'admin', `/service/${id}/alias/${pedidos.id}/`)).body.data.alias).toMatchObject({ id: pedidos.id });
  });

  it('deletes an alias from the panel and the backend', async () => {
    const list = (await api<{ alias: MailAlias[] }>(ctx, acc, 'admin', `/service/${id}/alias/list/`)).body.data.alias;
    const pedidos = list.find((a) => a.alias === 'pedidos')!;
    expect((await api(ctx, acc, 'admin', `/service/${id}/alias/${pedidos.id}/delete/`)).body.system.info[0]).toBe('Alias eliminado');
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'mail.alias', 'pedidos@tienda.test')).toBeUndefined();
    const after = (await api<{ alias: MailAlias[] }>(ctx, acc, 'admin', `/service/${id}/alias/list/`)).body.data.alias;
    expect(after.map((a) => a.alias)).toEqual(['']);
  });

  it('shows a change for a node whose agent is not connected as waiting for that node, and not once it checks in', async () => {
    const node = await ctx.store
      .insertInto('node')
      .values({ name: 'web9', host: 'web9', roles: 'mail', state: 'active', created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.store.updateTable('item').set({ node_id: node.id }).where('id', '=', id).execute();
    const { id: row } = await insertChild(ctx.store, 'mail_account', id, {
      item_id: id,
      name: 'esperando',
      password_secret: 'v1.x.y.z',
      quota: 0,
      job_id: null,
      created_at: now(),
    });
    const shown = async () =>
      (await api<{ correo: MailAccount[] }>(ctx, acc, 'reader', `/service/${id}/correo/list/`)).body.data.correo.find((c) => c.id === row);
    try {
      expect(await shown()).toMatchObject({ state: 'pending', waitingFor: 'web9' });
      await ctx.store.updateTable('node').set({ last_contact_at: now() }).where('id', '=', node.id).execute();
      const connected = await shown();
      expect(connected?.state).toBe('pending');
      expect(connected).not.toHaveProperty('waitingFor');
    } finally {
      await ctx.store.deleteFrom('job').where('node_id', '=', node.id).execute();
      await ctx.store.deleteFrom('mail_account').where('id', '=', row).execute();
      await ctx.store.updateTable('item').set({ node_id: null }).where('id', '=', id).execute();
    }
  });
});
