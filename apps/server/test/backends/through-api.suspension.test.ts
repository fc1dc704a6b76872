import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueDueTerminations } from '../../src/modules/operator/termination.ts';
import { login } from '../account/helpers.ts';
import { TEST_PASSWORD } from '../fixtures.ts';
import { call, operatorToken } from '../operator/helpers.ts';
import { eventually, missingBinaries } from './harness/common.ts';
import { NGINX, type NginxHarness, startNginx } from './harness/nginx.ts';
import { get } from './http.ts';
import { nginxOverrides, openRealApp, REFERENCE, type RealApp } from './through-api.ts';

const skip = missingBinaries(NGINX);
const HOST = `shop.${REFERENCE}`;
const EN = { 'accept-language': 'en' };

describe.skipIf(skip)("the operator's suspension and termination reach a real nginx", () => {
  let h: NginxHarness;
  let app: RealApp;
  let token: string;
  let siteId: number;
  const op = (p: string, body: unknown) => call(app.ctx.app, 'POST', p, token, body, EN);
  const confOf = (id: number) => readFile(path.join(h.dir, 'atalaya', 'sites', `site-${id}.conf`), 'utf8');
  const serves = (status: number, text: string) => async () => {
    const answer = await get(h.httpPort, HOST, '/index.html');
    return answer.status === status && answer.body.includes(text);
  };

  beforeAll(async () => {
    h = await startNginx();
    app = await openRealApp(nginxOverrides(h));
    token = await operatorToken(app.ctx);
    const created = await app.call<{ subdomain: { id: number } }>(`/service/${app.id}/subdomain/create/`, {
      subDomain: 'shop',
      folder: 'shop',
      SSLActive: '0',
    });
    expect(created.status).toBe(200);
    siteId = created.body.data.subdomain.id;
    await app.drain();
    await writeFile(path.join(h.dir, 'www', REFERENCE, 'shop', 'index.html'), 'the shop\n');
    await eventually(serves(200, 'the shop'));
  });
  afterAll(async () => {
    await app?.close();
    await h?.stop();
  });

  it('a suspended item answers 503 with the suspension page on every path; unsuspending serves the site again', async () => {
    expect((await op('item/suspend/', { realm: app.account.realm, reference: REFERENCE })).status).toBe(200);
    await app.drain();
    await eventually(serves(503, 'Service suspended'));
    expect((await get(h.httpPort, HOST, '/any/other/path.php')).status).toBe(503);
    // The customer's own files stay where they were, out of reach.
    expect(await confOf(siteId)).not.toContain(`try_files $uri`);
    expect((await op('item/unsuspend/', { realm: app.account.realm, reference: REFERENCE })).status).toBe(200);
    await app.drain();
    await eventually(serves(200, 'the shop'));
    expect(await confOf(siteId)).not.toContain('suspended.html');
  });

  it('a suspended realm cannot sign in, told why, and its sites answer the suspension page; unsuspending restores both', async () => {
    const credentials = { domainName: app.account.realm, username: 'owner', password: TEST_PASSWORD };
    expect((await op('realm/suspend/', { realm: app.account.realm })).status).toBe(200);
    const refused = await login(app.ctx, credentials, EN);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().system.errors).toEqual(['The account is suspended: contact your provider']);
    await app.drain();
    await eventually(serves(503, 'Service suspended'));
    expect((await op('realm/unsuspend/', { realm: app.account.realm })).status).toBe(200);
    expect((await login(app.ctx, credentials, EN)).statusCode).toBe(200);
    await app.drain();
    await eventually(serves(200, 'the shop'));
  });

  it("a terminated item's host leaves nginx and its web root leaves the disk, then the item is gone", async () => {
    const res = await op('item/delete/', { realm: app.account.realm, reference: REFERENCE });
    expect(res.status).toBe(200);
    await app.drain();
    await eventually(serves(503, 'Service suspended'));
    await app.ctx.store.transaction().execute((trx) => queueDueTerminations(trx, res.body.data.terminateAt));
    await app.drain();
    await eventually(async () => (await get(h.httpPort, HOST)).status === 404);
    expect(existsSync(path.join(h.dir, 'atalaya', 'sites', `site-${siteId}.conf`))).toBe(false);
    expect(existsSync(path.join(h.dir, 'www', REFERENCE))).toBe(false);
    expect(await app.ctx.store.selectFrom('item').select('id').where('id', '=', app.id).executeTakeFirst()).toBeUndefined();
  });
});
