import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { encode, FORM, solvedCaptcha } from './helpers.ts';

describeStores('legal text, captcha and contact forms on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  const outbox = () => path.join(ctx.config.dataDir, 'outbox');
  const mails = () => {
    try {
      return readdirSync(outbox())
        .sort()
        .map((f) => readFileSync(path.join(outbox(), f), 'utf8'));
    } catch {
      return [];
    }
  };
  const contactMail = async (fields: Record<string, string>) =>
    ctx.app.inject({ method: 'POST', url: '/p247/contactmail/', headers: { ...FORM, ...(await acc.as('ana')) }, payload: encode(fields) });
  const contact = (fields: Record<string, string>, ip = '10.7.0.1') =>
    ctx.app.inject({ method: 'POST', url: '/p247/contact/', remoteAddress: ip, headers: FORM, payload: encode(fields) });
  const GOOD_MAIL = { email: 'ana@cliente.es', subject: 'Renovación', contents: 'Quiero renovar tienda.es', privacy: '1' };

  beforeAll(async () => {
    ctx = await openTestApp(kind, { 'company.email': 'soporte@proveedor.es', 'company.name': 'Proveedor' });
    acc = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'one.es', domain: true }] });
  });
  afterAll(() => ctx.close());

  it.each([
    ['es', 'Política de privacidad', 'juzgados y tribunales de Palma'],
    ['en', 'Privacy policy', 'courts of Palma'],
    ['ca', 'Política de privadesa', 'jutjats i tribunals de Palma'],
  ])('answers the default privacy policy in %s to anyone, without the CSRF header', async (language, title, court) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/p247/legal/privacypolicy/?language=${language}` });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ title, redirecTo: null });
    expect(data.text).toContain(court);
    expect(data.text).toContain('Proveedor');
    expect(data.text).toContain('soporte@proveedor.es');
  });

  it('answers the operator’s own privacy policy when configured', async () => {
    const own = await openTestApp(kind, {
      'legal.privacyTitle': 'Aviso',
      'legal.privacyText': 'Texto propio',
      'legal.privacyLink': 'https://proveedor.es/privacidad',
    });
    try {
      const res = await own.app.inject({ method: 'GET', url: '/p247/legal/privacypolicy/' });
      expect(res.json().data).toEqual({ title: 'Aviso', text: 'Texto propio', redirecTo: 'https://proveedor.es/privacidad' });
    } finally {
      await own.close();
    }
  });

  it('asks name and phone on the contact page only when the provider configures the fuller variant', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/p247/config/get/' });
    expect(plain.json().data.contactForm).toBe('simple');
    const full = await openTestApp(kind, { 'company.contactForm': 'full' });
    try {
      const fullAcc = await createAccount(full.store, { users: { ana: 'all=write' }, items: [{ reference: 'two.es', domain: true }] });
      const config = await full.app.inject({ method: 'GET', url: '/p247/config/get/' });
      expect(config.json().data.contactForm).toBe('full');
      const send = async (fields: Record<string, string>) =>
        full.app.inject({
          method: 'POST',
          url: '/p247/contactmail/',
          headers: { ...FORM, ...(await fullAcc.as('ana')) },
          payload: encode(fields),
        });
      const missing = await send({ ...GOOD_MAIL, language: 'en' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().system).toMatchObject({ inputs: ['name', 'phone'], errors: ['Required field', 'Required field'] });
      expect((await send({ ...GOOD_MAIL, name: 'Ana', phone: '+34.600000000' })).statusCode).toBe(200);
    } finally {
      await full.close();
    }
  });

  it('hands out a signed ALTCHA challenge that is never cached', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/p247/captcha/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json().data;
    expect(data.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', expiresAt: expect.any(Number) });
    expect(data.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sends the signed-in contact message to the provider, replying to the customer', async () => {
    const before = mails().length;
    const res = await contactMail({ ...GOOD_MAIL, name: 'Ana', phone: '+34.600000000', language: 'en' });
    expect(res.statusCode).toBe(200);
    expect(res.json().system.info).toEqual(['Message sent. We will answer as soon as possible']);
    const eml = mails().slice(before);
    expect(eml).toHaveLength(1);
    expect(eml[0]).toMatch(/^To: soporte@proveedor\.es$/m);
    expect(eml[0]).toMatch(/^Reply-To: ana@cliente\.es$/m);
    expect(eml[0]).toContain(`Domain: ${acc.realm}`);
    expect(eml[0]).toContain('User: ana');
    expect(eml[0]).toContain('Quiero renovar tiend');
    const file = readdirSync(outbox())[0];
    expect(statSync(path.join(outbox(), file)).mode & 0o077).toBe(0);
  });

  it.each([
    [{}, ['email', 'subject', 'contents', 'privacy']],
    [{ ...GOOD_MAIL, email: 'not-an-email' }, ['email']],
    [{ ...GOOD_MAIL, privacy: '0' }, ['privacy']],
    [{ ...GOOD_MAIL, subject: 'Hola\r\nBcc: x@evil.example' }, ['subject']],
    [{ ...GOOD_MAIL, contents: 'x'.repeat(5001) }, ['contents']],
    // Text types refuse control characters (decision 015): a NUL in the name, CR/LF in the phone never reach the mail.
    [{ ...GOOD_MAIL, name: 'A\u0000na', phone: '600\r\nBcc: x@evil.example' }, ['name', 'phone']],
    [{ ...GOOD_MAIL, contents: 'Hola\u0000' }, ['contents']],
  ])('refuses the contact message %o with an error under each bad field', async (fields, inputs) => {
    const before = mails().length;
    const res = await contactMail(fields);
    expect(res.statusCode).toBe(400);
    expect(res.json().system.inputs).toEqual(inputs);
    expect(mails().length).toBe(before);
  });

  it('explains that the privacy policy must be accepted', async () => {
    const res = await contactMail({ ...GOOD_MAIL, privacy: '', language: 'ca' });
    expect(res.json().system.errors).toEqual(['Has d’acceptar la política de privadesa']);
  });

  const forgot = async () => ({
    domain: acc.realm,
    user: 'ana',
    name: 'Ana',
    email: 'ana@cliente.es',
    contents: 'He olvidado la contraseña',
    privacy: 'on',
    recaptcha_response: await solvedCaptcha(ctx),
  });

  it('sends the forgot-password message from the sign-in page with a solved captcha, once per captcha', async () => {
    const fields = await forgot();
    const before = mails().length;
    const res = await contact(fields, '10.7.0.2');
    expect(res.statusCode).toBe(200);
    const eml = mails().slice(before);
    expect(eml).toHaveLength(1);
    expect(eml[0]).toContain(`Password help: ana@${acc.realm}`);
    expect(eml[0]).toContain('IP: 10.7.0.2');
    const replay = await contact(fields, '10.7.0.2');
    expect(replay.statusCode).toBe(400);
    expect(replay.json().system.inputs).toEqual(['recaptcha_response']);
  });

  it('names every missing field of the forgot-password form', async () => {
    const res = await contact({});
    expect(res.json().system.inputs).toEqual(['domain', 'user', 'name', 'email', 'contents', 'privacy', 'recaptcha_response']);
  });

  it('limits forgot-password messages per IP', async () => {
    for (let i = 0; i < 5; i++) expect((await contact(await forgot(), '10.7.0.3')).statusCode).toBe(200);
    const res = await contact(await forgot(), '10.7.0.3');
    expect(res.statusCode).toBe(429);
    expect(res.json().system.errors[0]).toMatch(/Vuelve a intentarlo en 60 minutos/);
  });

  it('answers a generic 502 when the configured SMTP server cannot be reached', async () => {
    const smtp = await openTestApp(kind, { 'smtp.url': 'smtp://127.0.0.1:9' });
    try {
      const other = await createAccount(smtp.store, { users: { ana: 'all=write' }, items: [{ reference: 'one.es', domain: true }] });
      const res = await smtp.app.inject({
        method: 'POST',
        url: '/p247/contactmail/',
        headers: { ...FORM, ...(await other.as('ana')) },
        payload: encode(GOOD_MAIL),
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().system.errors).toEqual(['No se ha podido enviar el mensaje. Inténtalo más tarde']);
    } finally {
      await smtp.close();
    }
  });
});
