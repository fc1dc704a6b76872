import type { DkimKey } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../stores.ts';
import { api, localObject, openServiceSuite, type ServiceSuite } from './helpers.ts';

describeStores('DKIM keys of a mail domain on %s', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  beforeAll(async () => {
    ({ ctx, acc, id } = await openServiceSuite(kind));
    await ctx.app.runtime.outbox.drain();
  });
  afterAll(() => ctx.close());

  const list = async (user = 'reader') => (await api<{ keys: DkimKey[] }>(ctx, acc, user, `/service/${id}/dkim/`)).body.data.keys;
  const signer = async () => (await localObject(ctx, 'mail.dkim', 'tienda.test'))?.selectors;
  const later = async (state: 'published' | 'retired') => {
    await ctx.store.updateTable('mail_dkim').set({ next_at: 1 }).where('item_id', '=', id).where('state', '=', state).execute();
    expect(await ctx.app.runtime.scheduler.runNow('dkim-rotation')).toBe(true);
    await ctx.app.runtime.outbox.drain();
  };

  it('creates an RSA 2048 key with the mail service, sealed, signing, its record split into 255-byte strings', async () => {
    const [key, ...others] = await list();
    expect(others).toEqual([]);
    expect(key).toMatchObject({ algorithm: 'rsa', state: 'signing', nextAt: null });
    expect(key!.record.name).toBe(`${key!.selector}._domainkey.tienda.test`);
    expect(key!.record.strings.map((s) => s.length <= 255)).toEqual([true, true]);
    expect(key!.record.strings.join('')).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjAN[A-Za-z0-9+/=]+$/);
    const row = await ctx.store.selectFrom('mail_dkim').selectAll().where('item_id', '=', id).executeTakeFirstOrThrow();
    expect(row.private_secret).not.toContain('PRIVATE KEY');
    expect(ctx.app.runtime.secrets.decrypt(row.private_secret)).toContain('BEGIN RSA PRIVATE KEY');
    expect(await signer()).toEqual([{ selector: key!.selector, sign: true }]);
  });

  it('rotates: the new key is published first, signs after its TTL while the old is retired, and the old leaves later', async () => {
    const [old] = await list();
    const before = Math.floor(Date.now() / 1000);
    const rotated = await api<{ keys: DkimKey[] }>(ctx, acc, 'admin', `/service/${id}/dkim/rotate/`, {});
    expect(rotated.status).toBe(200);
    const [, fresh] = rotated.body.data.keys;
    expect(rotated.body.data.keys.map((k) => k.state)).toEqual(['signing', 'published']);
    expect(fresh!.selector).not.toBe(old!.selector);
    expect(fresh!.nextAt).toBeGreaterThanOrEqual(before + 3600);
    await ctx.app.runtime.outbox.drain();
    expect(await signer()).toEqual([
      { selector: old!.selector, sign: true },
      { selector: fresh!.selector, sign: false },
    ]);
    // Nothing moves before its time.
    expect(await ctx.app.runtime.scheduler.runNow('dkim-rotation')).toBe(true);
    expect((await list()).map((k) => k.state)).toEqual(['signing', 'published']);
    await later('published');
    expect((await list()).map((k) => [k.selector, k.state])).toEqual([
      [old!.selector, 'retired'],
      [fresh!.selector, 'signing'],
    ]);
    expect(await signer()).toEqual([
      { selector: old!.selector, sign: false },
      { selector: fresh!.selector, sign: true },
    ]);
    await later('retired');
    expect((await list()).map((k) => k.selector)).toEqual([fresh!.selector]);
    expect(await signer()).toEqual([{ selector: fresh!.selector, sign: true }]);
  });

  it('lets readers see the records, only writers rotate, and hides both from users without the mail service', async () => {
    expect((await list('reader')).length).toBe(1);
    expect((await api(ctx, acc, 'reader', `/service/${id}/dkim/rotate/`, {})).status).toBe(403);
    expect((await api(ctx, acc, 'nothing', `/service/${id}/dkim/`)).status).toBe(404);
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/dkim/`)).status).toBe(404);
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/dkim/rotate/`, {})).status).toBe(404);
    expect((await list('reader')).length).toBe(1);
  });
});
