import type { FtpUser, MailAlias } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyPassword } from '../../src/passwords.ts';
import { describeStores } from '../stores.ts';
import { api, openServiceSuite, type ServiceSuite } from './helpers.ts';

/**
 * A job may be applied twice: its process died after the backend change and before recording it,
 * and another process took it over when the lease ran out. The backend must end the same.
 */
describeStores('a job applied twice after a crash on %s', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  beforeAll(async () => ({ ctx, acc, id } = await openServiceSuite(kind)));
  afterAll(() => ctx.close());

  /** The local backends' objects; a password hash (salted anew on each application) as whether it opens with the password. */
  const backend = async () => {
    const rows = await ctx.store.selectFrom('local_backend').select(['driver', 'key', 'data']).orderBy('driver').orderBy('key').execute();
    return Promise.all(
      rows.map(async ({ driver, key, data }) => {
        const { hash, ...rest } = JSON.parse(data) as { hash?: string };
        return { driver, key, ...rest, ...(hash ? { opens: await verifyPassword(hash, 'Ftp-pass-123') } : {}) };
      }),
    );
  };
  /** The job is applied, then found running with its lease over, as a dead process leaves it, and taken over. */
  async function applyTwice(job: number) {
    await ctx.app.runtime.outbox.drain();
    const once = await backend();
    await ctx.store.updateTable('job').set({ status: 'running', lease_until: 0, claimed_by: 'dead' }).where('id', '=', job).execute();
    expect((await ctx.app.runtime.outbox.runOne())?.id).toBe(job);
    expect(await ctx.store.selectFrom('job').select(['status', 'attempts']).where('id', '=', job).executeTakeFirst()).toEqual({
      status: 'done',
      attempts: 1,
    });
    return { once, twice: await backend() };
  }

  it('leaves the backend as one application did, for a mail alias, an FTP user and their deletes', async () => {
    const alias = await api<{ alias: MailAlias }>(ctx, acc, 'admin', `/service/${id}/alias/create/`, {
      name: 'ventas',
      target: 'a@b.test',
    });
    const ftp = await api<{ ftp: FtpUser }>(ctx, acc, 'admin', `/service/${id}/ftp/create/`, {
      ftpUser: 'web',
      password: 'Ftp-pass-123',
      folder: '/',
    });
    for (const job of [alias.body.system.job!, ftp.body.system.job!]) {
      const { once, twice } = await applyTwice(job);
      expect(twice).toEqual(once);
    }
    expect((await backend()).find((r) => r.key === 'web.tienda.test')).toMatchObject({ opens: true });
    const deleted = await api(ctx, acc, 'admin', `/service/${id}/alias/${alias.body.data.alias.id}/delete/`);
    const { once, twice } = await applyTwice(deleted.body.system.job!);
    expect(once.some((r) => r.key.startsWith('ventas@'))).toBe(false);
    expect(twice).toEqual(once);
  });
});
