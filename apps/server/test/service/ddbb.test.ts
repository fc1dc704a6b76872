import type { AutoForm, DatabaseView } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../stores.ts';
import { api, localObject, openServiceSuite, type ServiceSuite } from './helpers.ts';

describeStores('databases on %s (local driver)', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  beforeAll(async () => ({ ctx, acc, id } = await openServiceSuite(kind, { databases: 2 })));
  afterAll(() => ctx.close());

  const create = (password = 'Db-pass-1234', user = 'admin', item = id) =>
    api<{ ddbb: DatabaseView }>(ctx, acc, user, `/service/${item}/ddbb/create/`, { password });
  const list = async () => (await api<{ ddbb: DatabaseView[] }>(ctx, acc, 'admin', `/service/${id}/ddbb/list/`)).body.data.ddbb;

  it('creates databases with generated names, one user each, up to the limit', async () => {
    const first = await create();
    expect(first.status).toBe(200);
    expect(first.body.data.ddbb).toMatchObject({
      bbdd: `tienda_test_${id}_1`,
      user: `tienda_test_${id}_1`,
      externalAccess: false,
      state: 'pending',
      eliminable: true,
    });
    expect(first.body.data.ddbb).not.toHaveProperty('password');
    expect((await create()).body.data.ddbb.bbdd).toBe(`tienda_test_${id}_2`);
    const over = await create();
    expect(over.status).toBe(400);
    expect(over.body.system.errors[0]).toBe('Has alcanzado el máximo de 2 bases de datos');
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'databases', `tienda_test_${id}_1`)).toMatchObject({ user: `tienda_test_${id}_1`, host: 'localhost' });
    expect((await list()).map((d) => d.state)).toEqual(['ready', 'ready']);
    const service = await api<{ service: { usage: { BBDD: unknown } } }>(ctx, acc, 'admin', `/service/${id}/`);
    expect(service.body.data.service.usage.BBDD).toEqual({ used: 2, limit: 2 });
  });

  it('refuses a short password and read-only users', async () => {
    await ctx.store.updateTable('service').set({ limit_databases: 5 }).where('item_id', '=', id).execute();
    expect((await create('corta')).body.system.inputs).toEqual(['password']);
    expect((await create('Db-pass-1234', 'reader')).status).toBe(403);
  });

  it('shows the password to writers, with phpMyAdmin form data, and refuses readers (403)', async () => {
    const [db] = await list();
    const shown = await api<{ ddbb: DatabaseView & { password: string } }>(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/`);
    expect(shown.body.data.ddbb.password).toBe('Db-pass-1234');
    expect((await api(ctx, acc, 'reader', `/service/${id}/ddbb/${db.id}/`)).status).toBe(403);
    expect((await api(ctx, acc, 'reader', `/service/${id}/ddbb/${db.id}/login/`)).status).toBe(403);
    const login = await api<AutoForm>(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/login/`);
    expect(login.body.data).toMatchObject({
      method: 'post',
      action: ctx.config.hosting.phpMyAdminUrl,
      inputs: { pma_username: db.user, pma_password: 'Db-pass-1234' },
    });
  });

  it('changes the password and toggles external access, answering the updated database', async () => {
    const [db] = await list();
    expect((await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/changepassword/`, { password: 'Nueva-clave-77' })).status).toBe(200);
    const on = await api<{ ddbb: DatabaseView }>(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/toggle/externalaccess/`);
    expect(on.body.data.ddbb).toMatchObject({ externalAccess: true, state: 'pending' });
    expect(on.body.system.info[0]).toBe('Acceso externo activado');
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'databases', db.bbdd)).toMatchObject({ host: '%' });
    const off = await api<{ ddbb: DatabaseView }>(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/toggle/externalaccess/`);
    expect(off.body.data.ddbb.externalAccess).toBe(false);
    expect((await api(ctx, acc, 'reader', `/service/${id}/ddbb/${db.id}/toggle/externalaccess/`)).status).toBe(403);
    expect((await api(ctx, acc, 'reader', `/service/${id}/ddbb/${db.id}/changepassword/`, { password: 'Nueva-clave-77' })).status).toBe(
      403,
    );
  });

  it('dumps a database as a Backup file download, for writers only', async () => {
    await ctx.app.runtime.outbox.drain();
    const [db] = await list();
    const dump = await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/dump/`);
    expect(dump.status).toBe(200);
    expect(String(dump.headers['content-disposition'])).toMatch(
      new RegExp(`^attachment; filename="Backup-${db.bbdd}-\\d{4}-\\d\\d-\\d\\d\\.sql"$`),
    );
    expect(dump.raw).toContain(`CREATE DATABASE IF NOT EXISTS \`${db.bbdd}\``);
    expect((await api(ctx, acc, 'reader', `/service/${id}/ddbb/${db.id}/dump/`)).status).toBe(403);
  });

  it('answers 404 for foreign ids and users who may not see databases', async () => {
    const [db] = await list();
    const other = acc.items['otra.test'];
    for (const path of ['', 'login/', 'dump/', 'toggle/externalaccess/', 'delete/']) {
      expect((await api(ctx, acc, 'admin', `/service/${other}/ddbb/${db.id}/${path}`)).status).toBe(404);
    }
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/ddbb/list/`)).status).toBe(404);
  });

  it('deletes a database; its name is then free again', async () => {
    const [db] = await list();
    expect((await api(ctx, acc, 'admin', `/service/${id}/ddbb/${db.id}/delete/`)).body.system.info[0]).toBe('Base de datos eliminada');
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'databases', db.bbdd)).toBeUndefined();
    expect((await list()).map((d) => d.bbdd)).toEqual([`tienda_test_${id}_2`]);
    expect((await create()).body.data.ddbb.bbdd).toBe(`tienda_test_${id}_1`);
  });
});
