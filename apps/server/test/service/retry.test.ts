import type { FtpUser, MailAlias } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../stores.ts';
import { api, openServiceSuite, type ServiceSuite } from './helpers.ts';

describeStores("a user's retry of a failed change on %s", (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  beforeAll(async () => ({ ctx, acc, id } = await openServiceSuite(kind)));
  afterAll(() => ctx.close());

  /** An FTP user whose job failed for good (its backend refused it eight times). */
  async function failedFtpUser(name: string) {
    const created = await api<{ ftp: FtpUser }>(ctx, acc, 'admin', `/service/${id}/ftp/create/`, {
      ftpUser: name,
      password: 'Ftp-pass-123',
      folder: '/',
    });
    const job = created.body.system.job!;
    await ctx.store
      .updateTable('job')
      .set({ status: 'failed', attempts: 8, last_error: 'pure-pw: exit 1' })
      .where('id', '=', job)
      .execute();
    return job;
  }
  const ftpState = async (name: string) =>
    (await api<{ ftps: FtpUser[] }>(ctx, acc, 'admin', `/service/${id}/ftp/list/`)).body.data.ftps.find((f) => f.name === name)?.state;

  it('queues the failed job of a row the user may write again, and the row then applies', async () => {
    const job = await failedFtpUser('caido');
    expect(await ftpState('caido')).toBe('failed');
    const retried = await api(ctx, acc, 'ftponly', `/service/${id}/job/${job}/retry/`, {});
    expect(retried.status).toBe(200);
    expect(retried.body.system).toMatchObject({ job, info: ['Se volverá a aplicar el cambio'] });
    expect(await ctx.store.selectFrom('job').select(['status', 'attempts']).where('id', '=', job).executeTakeFirst()).toEqual({
      status: 'pending',
      attempts: 0,
    });
    expect(await ftpState('caido')).toBe('pending');
    await ctx.app.runtime.outbox.drain();
    expect(await ftpState('caido')).toBe('ready');
  });

  it('refuses a reader (403), a user who cannot see the area (404) and a retry of a change that has not failed (409)', async () => {
    const job = await failedFtpUser('otro');
    expect((await api(ctx, acc, 'reader', `/service/${id}/job/${job}/retry/`, {})).status).toBe(403);
    expect((await api(ctx, acc, 'mailonly', `/service/${id}/job/${job}/retry/`, {})).status).toBe(404);
    expect((await api(ctx, acc, 'admin', `/service/${id}/job/${job}/retry/`, {})).status).toBe(200);
    const again = await api(ctx, acc, 'admin', `/service/${id}/job/${job}/retry/`, {});
    expect(again.status).toBe(409);
    expect(again.body.system.errors).toEqual(['Ese cambio no ha fallado: no hay nada que reintentar']);
  });

  it("answers 404 for a job of another item, of another area's kind or that does not exist", async () => {
    const job = await failedFtpUser('ajeno');
    expect((await api(ctx, acc, 'admin', `/service/${acc.items['otra.test']}/job/${job}/retry/`, {})).status).toBe(404);
    expect((await api(ctx, acc, 'admin', `/service/${id}/job/999999/retry/`, {})).status).toBe(404);
    const alias = await api<{ alias: MailAlias }>(ctx, acc, 'admin', `/service/${id}/alias/create/`, {
      name: 'ventas',
      target: 'a@b.test',
    });
    const aliasJob = alias.body.system.job!;
    await ctx.store.updateTable('job').set({ status: 'failed' }).where('id', '=', aliasJob).execute();
    // An FTP-only user may not retry a mail alias's change.
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/job/${aliasJob}/retry/`, {})).status).toBe(404);
    expect((await api(ctx, acc, 'mailonly', `/service/${id}/job/${aliasJob}/retry/`, {})).status).toBe(200);
  });
});
