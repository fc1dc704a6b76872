import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearerOf, send } from '../fixtures.ts';
import { type DomainTest, describeRegistries, openDomainTest } from './helpers.ts';

describeRegistries('the auth code is a credential (decision 051) on %s', (kind, registry) => {
  let t: DomainTest;
  const bearer = (scope: string) => bearerOf(t.ctx.store, t.account.users.w, scope);
  const reveals = (itemId: number) =>
    t.ctx.store.selectFrom('audit_event').selectAll().where('item_id', '=', itemId).where('action', '=', 'domain.authcode').execute();

  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());

  it('shows a viewer only whether a code is set: no code in any answer, and 403 on the reveal', async () => {
    const id = t.id('y.com');
    const { body } = await t.get(`/domain/${id}/`, 'r');
    expect(body.data.domain).toMatchObject({ authcode: true, hasAuthCode: true });
    expect((await t.get(`/domain/${id}/authcode/`, 'r')).status).toBe(403);
    expect((await t.get(`/domain/${t.id('x.es')}/transferkey/`, 'r')).status).toBe(403);
    expect((await t.post(`/domain/${id}/authcode/regenerate/`, {}, 'r')).status).toBe(403);
    const code = (await t.get(`/domain/${id}/authcode/`, 'w')).body.data.authCode as string;
    expect(JSON.stringify((await t.get(`/domain/${id}/`, 'r')).body)).not.toContain(code);
  });

  it('refuses the reveal, and the new code, to any API token: all=read and all=write alike (403)', async () => {
    const id = t.id('y.com');
    for (const scope of ['all=read', 'all=write']) {
      const headers = await bearer(scope);
      expect((await send(t.ctx.app, 'GET', `/domain/${id}/authcode/`, headers)).status).toBe(403);
      expect((await send(t.ctx.app, 'GET', `/domain/${t.id('x.es')}/transferkey/`, headers)).status).toBe(403);
      expect((await send(t.ctx.app, 'POST', `/domain/${id}/authcode/regenerate/`, headers, {})).status).toBe(403);
      // The flag is a read's: a token sees it.
      expect((await send(t.ctx.app, 'GET', `/domain/${id}/`, headers)).body.data.domain.hasAuthCode).toBe(true);
    }
  });

  it('reveals the code to a writer’s session, and records each reveal in the activity log without the code', async () => {
    const id = t.id('z.eu');
    const before = (await reveals(id)).length;
    const reply = await t.get(`/domain/${id}/authcode/`, 'w');
    expect(reply.status).toBe(200);
    const code = reply.body.data.authCode as string;
    expect(code).toMatch(/^.{16}$/);
    if (registry === 'epp') expect(t.registry!.state.data.domains['z.eu'].authInfo).toBe(code);
    const lines = await reveals(id);
    expect(lines).toHaveLength(before + 1);
    const line = lines.at(-1)!;
    expect(line).toMatchObject({ user_id: t.account.users.w, actor: 'user', area: 'domain_authcode', outcome: 'success' });
    expect(JSON.parse(line.changes)).toEqual([{ field: 'revealed', before: null, after: 'authcode' }]);
    expect(JSON.stringify(line)).not.toContain(code);
  });

  it('answers 404 for the reveal of another realm’s domain', async () => {
    expect((await t.get(`/domain/${t.id('other.com')}/authcode/`, 'w')).status).toBe(404);
    const stranger = await send(t.ctx.app, 'GET', `/domain/${t.id('y.com')}/authcode/`, await t.other.as('o'));
    expect(stranger.status).toBe(404);
  });
});
