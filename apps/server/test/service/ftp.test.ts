import type { AutoForm, FtpUser } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyPassword } from '../../src/passwords.ts';
import { describeStores } from '../stores.ts';
import { api, localObject, openServiceSuite, type ServiceSuite } from './helpers.ts';

describeStores('FTP users on %s', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  beforeAll(async () => ({ ctx, acc, id } = await openServiceSuite(kind)));
  afterAll(() => ctx.close());

  const create = (ftpUser: string, folder: string, password = 'Ftp-pass-123', user = 'admin', item = id) =>
    api<{ ftp: FtpUser }>(ctx, acc, user, `/service/${item}/ftp/create/`, { ftpUser, password, folder });
  const list = async () => (await api<{ ftps: FtpUser[] }>(ctx, acc, 'admin', `/service/${id}/ftp/list/`)).body.data.ftps;

  it('answers the FTP main data: server name and the login suffix', async () => {
    const { body } = await api(ctx, acc, 'reader', `/service/${id}/ftp/main/`);
    expect(body.data.ftp).toMatchObject({ server: 'ftp.tienda.test', suffix: '.tienda.test', maxUser: 10 });
  });

  it('creates a user shown with .{reference}, home resolved inside the web root', async () => {
    const { status, body } = await create('Web', '/public_html//blog/');
    expect(status).toBe(200);
    expect(body.data.ftp).toMatchObject({ user: 'web.tienda.test', name: 'web', directorio: 'public_html/blog', state: 'pending' });
    await ctx.app.runtime.outbox.drain();
    const backend = await localObject(ctx, 'ftp.user', 'web.tienda.test');
    expect(backend.home).toBe('/var/www/tienda.test/public_html/blog');
    expect(await verifyPassword(backend.hash, 'Ftp-pass-123')).toBe(true);
    expect((await list()).map((f) => [f.user, f.state])).toEqual([['web.tienda.test', 'ready']]);
  });

  it('takes the root folder as "/"', async () => {
    expect((await create('raiz', '/')).body.data.ftp.directorio).toBe('');
  });

  it('refuses a folder that leaves the web root: "..", NUL, backslash, control characters', async () => {
    for (const folder of ['../etc', 'a/../../b', 'a/..', 'a\u0000b', 'a\\..\\b', '~/x', 'a\nb']) {
      const { status, body } = await create('malo', folder);
      expect(status, folder).toBe(400);
      expect(body.system.inputs).toEqual(['folder']);
    }
    expect((await create('malo', '')).body.system.errors[0]).toBe('Campo obligatorio');
  });

  it('refuses a user over 10 characters, invalid characters, a taken name and a missing password', async () => {
    expect((await create('abcdefghijk', 'x')).body.system.errors[0]).toBe('Debe tener como máximo 10 caracteres');
    expect((await create('a.b', 'x')).body.system.inputs).toEqual(['ftpUser']);
    expect((await create('web', 'x')).body.system.errors[0]).toBe('Este servicio ya tiene uno con ese nombre');
    expect((await create('nuevo', 'x', '')).body.system.inputs).toEqual(['password']);
  });

  it('edits the folder and changes the password, on the backend too', async () => {
    const web = (await list()).find((f) => f.name === 'web')!;
    const saved = await api<{ ftp: FtpUser }>(ctx, acc, 'admin', `/service/${id}/ftp/${web.id}/save/`, { folder: 'tienda' });
    expect(saved.body.data.ftp.directorio).toBe('tienda');
    expect((await api(ctx, acc, 'admin', `/service/${id}/ftp/${web.id}/save/`, { folder: '../../' })).status).toBe(400);
    await api(ctx, acc, 'admin', `/service/${id}/ftp/${web.id}/changepassword/`, { password: 'Otra-clave-99' });
    await ctx.app.runtime.outbox.drain();
    const backend = await localObject(ctx, 'ftp.user', 'web.tienda.test');
    expect(backend.home).toBe('/var/www/tienda.test/tienda');
    expect(await verifyPassword(backend.hash, 'Otra-clave-99')).toBe(true);
    // A reader sees the user, never its password (decision 029).
    const detail = await api<{ ftp: FtpUser }>(ctx, acc, 'reader', `/service/${id}/ftp/${web.id}/`);
    expect(detail.body.data.ftp).toMatchObject({ directorio: 'tienda' });
    expect(detail.raw).not.toContain('Otra-clave-99');
  });

  it('answers WebFTP form data with the initial directory checked', async () => {
    const web = (await list()).find((f) => f.name === 'web')!;
    expect((await api(ctx, acc, 'reader', `/service/${id}/ftp/${web.id}/login/?initialDirectory=/fotos`)).status).toBe(403);
    const { body } = await api<AutoForm>(ctx, acc, 'admin', `/service/${id}/ftp/${web.id}/login/?initialDirectory=/fotos`);
    expect(body.data).toMatchObject({ method: 'post', action: ctx.config.hosting.webFtpUrl });
    expect(body.data.inputs).toEqual({
      server: 'ftp.tienda.test',
      username: 'web.tienda.test',
      password: 'Otra-clave-99',
      directory: '/fotos',
    });
    expect((await api(ctx, acc, 'admin', `/service/${id}/ftp/${web.id}/login/?initialDirectory=../..`)).status).toBe(400);
  });

  it('gates every call by FTP permission and answers 404 for foreign ids', async () => {
    const web = (await list()).find((f) => f.name === 'web')!;
    expect((await create('lector', 'x', 'Ftp-pass-123', 'reader')).status).toBe(403);
    expect((await api(ctx, acc, 'reader', `/service/${id}/ftp/${web.id}/delete/`)).status).toBe(403);
    expect((await api(ctx, acc, 'reader', `/service/${id}/ftp/${web.id}/changepassword/`, { password: 'Otra-clave-99' })).status).toBe(403);
    expect((await api(ctx, acc, 'mailonly', `/service/${id}/ftp/list/`)).status).toBe(404);
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/ftp/list/`)).status).toBe(200);
    const other = acc.items['otra.test'];
    for (const path of ['', 'login/', 'delete/'])
      expect((await api(ctx, acc, 'admin', `/service/${other}/ftp/${web.id}/${path}`)).status).toBe(404);
    expect((await api(ctx, acc, 'admin', `/service/${other}/ftp/${web.id}/save/`, { folder: 'x' })).status).toBe(404);
  });

  it('deletes a user from the panel and the backend', async () => {
    const web = (await list()).find((f) => f.name === 'web')!;
    expect((await api(ctx, acc, 'admin', `/service/${id}/ftp/${web.id}/delete/`)).body.system.info[0]).toBe('Usuario FTP eliminado');
    expect((await list()).find((f) => f.id === web.id)?.state).toBe('deleting');
    await ctx.app.runtime.outbox.drain();
    expect((await list()).map((f) => f.name)).toEqual(['raiz']);
    expect(await localObject(ctx, 'ftp.user', 'web.tienda.test')).toBeUndefined();
  });
});
