import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestRegistry } from '../../../registry/src/server.ts';
import { createRealm } from '../../src/modules/provisioning/accounts.ts';
import { holdAtRegistry, OTHER_CLIENT } from '../domain/helpers.ts';
import { CLIENT_ID, certificateFiles, eppDriverConfig, PASSWORD, startTestRegistry } from '../registry-epp/harness.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { call, operatorToken, uniqueRealm } from './helpers.ts';

const EN = { 'accept-language': 'en' };

describeStores('the operator transfer-in call on %s', (kind) => {
  const certs = certificateFiles();
  let registry: TestRegistry;
  let ctx: TestContext;
  let token: string;
  const realm = uniqueRealm();
  const op = (body: unknown, key?: string) =>
    call(ctx.app, 'POST', 'domain/transfer/', token, body, { ...EN, ...(key ? { 'idempotency-key': key } : {}) });
  const items = (name: string) => ctx.store.selectFrom('item').select('id').where('reference', '=', name).execute();

  beforeAll(async () => {
    registry = await startTestRegistry(certs, { clients: { [CLIENT_ID]: PASSWORD, [OTHER_CLIENT]: 'secret-b1' } });
    ctx = await openTestApp(kind, {
      'drivers.registry': eppDriverConfig(registry, certs),
    });
    token = await operatorToken(ctx);
    await createRealm(ctx.store, realm);
    holdAtRegistry(registry, 'llega.es', OTHER_CLIENT, 'Llega-code-1');
  });
  afterAll(async () => {
    await ctx.close();
    await registry.close();
  });

  it('refuses a wrong auth code with 422, leaving no item and asking the registry nothing', async () => {
    const res = await op({ realm, name: 'llega.es', authCode: 'wrong' });
    expect(res.status).toBe(422);
    expect(res.errors).toEqual(['The authorisation code of llega.es is wrong']);
    expect(await items('llega.es')).toHaveLength(0);
    expect(registry.state.data.domains['llega.es'].transfer).toBeUndefined();
  });

  it('refuses a domain the registry does not know with 422', async () => {
    const res = await op({ realm, name: 'nadie.es', authCode: 'any' });
    expect(res.status).toBe(422);
    expect(res.errors).toEqual(['The registry does not know the domain nadie.es: it cannot be transferred']);
    expect(await items('nadie.es')).toHaveLength(0);
  });

  it('needs the domains scope', async () => {
    const provisionOnly = await operatorToken(ctx, ['provision']);
    const res = await call(ctx.app, 'POST', 'domain/transfer/', provisionOnly, { realm, name: 'llega.es', authCode: 'Llega-code-1' });
    expect(res.status).toBe(403);
    expect(await items('llega.es')).toHaveLength(0);
  });

  it('creates the item and sends the request through the outbox; the same Idempotency-Key answers the same, asking once', async () => {
    const first = await op({ realm, name: 'llega.es', authCode: 'Llega-code-1' }, 'transfer-llega');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: 'llega.es' });
    const again = await op({ realm, name: 'llega.es', authCode: 'Llega-code-1' }, 'transfer-llega');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await items('llega.es')).toHaveLength(1);
    await ctx.app.runtime.outbox.drain();
    expect(registry.state.data.domains['llega.es'].transfer).toMatchObject({ status: 'pending', reID: CLIENT_ID });
    const changes = await ctx.store
      .selectFrom('registry_change')
      .select(['action', 'state'])
      .where('item_id', '=', first.body.data.id)
      .execute();
    expect(changes).toEqual([{ action: 'transferRequest', state: 'awaiting' }]);
  });
});
