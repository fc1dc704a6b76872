import type { MailAccount } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../stores.ts';
import { api, localObject, openServiceSuite, type ServiceSuite } from './helpers.ts';

describeStores('mail account delivery (quota, autoresponder, forwarding) on %s', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  let accountId = 0;
  let otherAccount = 0;
  beforeAll(async () => {
    ({ ctx, acc, id } = await openServiceSuite(kind));
    const created = await api<{ correo: MailAccount }>(ctx, acc, 'admin', `/service/${id}/correo/create/`, {
      name: 'ventas',
      password: 'Secr3t-pass!',
    });
    accountId = created.body.data.correo.id;
    const other = acc.items['otra.test'];
    otherAccount = (
      await api<{ correo: MailAccount }>(ctx, acc, 'admin', `/service/${other}/correo/create/`, { name: 'x', password: 'Secr3t-pass!' })
    ).body.data.correo.id;
    await ctx.app.runtime.outbox.drain();
  });
  afterAll(() => ctx.close());

  const form = (fields: Record<string, string> = {}) => ({
    quotaMb: '200',
    autoreply: 'on',
    autoreplySubject: 'Fuera de la oficina',
    autoreplyText: 'Vuelvo el lunes.\nGracias.',
    autoreplyStart: '2026-12-01',
    autoreplyEnd: '2026-12-15',
    autoreplyDays: '3',
    forwardTo: 'Jefa@Otro.test, copia@otro.test',
    forwardKeep: 'on',
    ...fields,
  });
  const save = (fields: Record<string, string>, user = 'admin', account = accountId) =>
    api<{ correo: MailAccount }>(ctx, acc, user, `/service/${id}/correo/${account}/delivery/`, fields);
  const listed = async (user = 'reader') =>
    (await api<{ correo: MailAccount[] }>(ctx, acc, user, `/service/${id}/correo/list/`)).body.data.correo.find((c) => c.id === accountId)!;

  it('saves the quota, the autoresponder and forwarding, shows them on the list and applies them to the mail backend', async () => {
    const saved = await save(form());
    expect(saved.status).toBe(200);
    expect(saved.body.system.job).toBeGreaterThan(0);
    const autoresponder = {
      subject: 'Fuera de la oficina',
      text: 'Vuelvo el lunes.\nGracias.',
      start: '2026-12-01',
      end: '2026-12-15',
      days: 3,
    };
    const forward = { targets: ['jefa@otro.test', 'copia@otro.test'], keepCopy: true };
    expect(saved.body.data.correo).toMatchObject({ quota: 200 * 1024 * 1024, autoresponder, forward, state: 'pending' });
    await ctx.app.runtime.outbox.drain();
    expect(await listed()).toMatchObject({ quota: 200 * 1024 * 1024, autoresponder, forward, state: 'ready' });
    expect(await localObject(ctx, 'mail.box', 'ventas@tienda.test')).toMatchObject({ quota: 200 * 1024 * 1024, autoresponder, forward });
  });

  it('turns the autoresponder and forwarding off, open-ended dates and forwarding without a copy included', async () => {
    await save(form({ autoreplyStart: '', autoreplyEnd: '', forwardKeep: '' }));
    expect(await listed()).toMatchObject({ autoresponder: { start: null, end: null }, forward: { keepCopy: false } });
    const off = await save(form({ autoreply: '', autoreplySubject: '', autoreplyText: '', forwardTo: '' }));
    expect(off.status).toBe(200);
    expect(off.body.data.correo).toMatchObject({ autoresponder: null, forward: null });
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'mail.box', 'ventas@tienda.test')).toMatchObject({ autoresponder: null, forward: null });
  });

  it('refuses each bad field under its name, translated, and changes nothing', async () => {
    const before = await listed();
    const cases: [Record<string, string>, string, string][] = [
      [{ quotaMb: '0' }, 'quotaMb', 'La cuota debe ser un número entero de MB entre 1 y 1048576'],
      [{ quotaMb: '1048577' }, 'quotaMb', 'La cuota debe ser un número entero de MB entre 1 y 1048576'],
      [{ quotaMb: '1.5' }, 'quotaMb', 'La cuota debe ser un número entero de MB entre 1 y 1048576'],
      [{ autoreplySubject: '' }, 'autoreplySubject', 'Campo obligatorio'],
      [{ autoreplyText: ' ' }, 'autoreplyText', 'Campo obligatorio'],
      [{ autoreplySubject: 'Hola\r\nBcc: x@y.test' }, 'autoreplySubject', ''],
      [{ autoreplyStart: '2026-13-01' }, 'autoreplyStart', 'Fecha no válida'],
      [{ autoreplyEnd: '2026-11-30' }, 'autoreplyEnd', 'La fecha de fin no puede ser anterior a la de inicio'],
      [{ autoreplyDays: '0' }, 'autoreplyDays', 'Indica un número entero de días entre 1 y 365'],
      [{ autoreplyDays: '366' }, 'autoreplyDays', 'Indica un número entero de días entre 1 y 365'],
      [{ forwardTo: 'no es correo' }, 'forwardTo', ''],
      [{ forwardTo: 'otro@x.test, VENTAS@tienda.test' }, 'forwardTo', 'Una cuenta no puede reenviarse a sí misma'],
    ];
    for (const [fields, input, message] of cases) {
      const answer = await save(form(fields));
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.body.system.inputs, JSON.stringify(fields)).toEqual([input]);
      if (message) expect(answer.body.system.errors).toEqual([message]);
    }
    expect(await listed()).toEqual(before);
  });

  it('answers in the caller’s language', async () => {
    const en = await send('en');
    expect(en.body.system.errors).toEqual(['The end date cannot be before the start date']);
    const ca = await send('ca');
    expect(ca.body.system.errors).toEqual(['La data de fi no pot ser anterior a la d’inici']);
    async function send(language: string) {
      await ctx.store.updateTable('user').set({ language }).where('id', '=', acc.users.admin).execute();
      try {
        return await save(form({ autoreplyEnd: '2026-11-01' }));
      } finally {
        await ctx.store.updateTable('user').set({ language: 'es' }).where('id', '=', acc.users.admin).execute();
      }
    }
  });

  it('needs write on the mail accounts: readers get 403, hidden users and foreign accounts 404', async () => {
    expect((await save(form(), 'reader')).status).toBe(403);
    expect((await save(form(), 'noalias')).status).toBe(200);
    expect((await save(form(), 'mailonly')).status).toBe(200);
    expect((await save(form(), 'nothing')).status).toBe(404);
    expect((await save(form(), 'ftponly')).status).toBe(404);
    expect((await save(form(), 'admin', otherAccount)).status).toBe(404);
    expect((await save(form(), 'admin', 999_999)).status).toBe(404);
  });
});
