import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openItem, openService } from '../../src/modules/permission/open.ts';
import { type Account, createAccount, send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

type Open = (request: FastifyRequest<{ Params: { id: string } }>) => Promise<unknown>;

/**
 * A handler must open its item with the area and level the endpoint table declares for the call:
 * what the API documents is what it checks. A mismatch is a programming error (500), never a
 * quiet grant; these routes stand in for handlers that got it right and wrong.
 */
describeStores('opening an item against the declared permission on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let n = 0;
  /** A route declared with `permission` whose handler opens the item with `open`; answers its path. */
  const routeWith = (permission: Record<string, unknown>, open: Open) => {
    const path = `/test/open${++n}/:id/`;
    ctx.app.get<{ Params: { id: string } }>(`/p247${path}`, { config: { permission: permission as never } }, async (request) => {
      await open(request);
      return { data: null };
    });
    return (id: number) => path.replace(':id', String(id));
  };
  const routes: Record<string, (id: number) => string> = {};

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { owner: 'all=write' },
      items: [{ reference: 'open.test', domain: true, service: 'normal' }],
    });
    const id = (r: FastifyRequest<{ Params: { id: string } }>) => r.params.id;
    routes.same = routeWith({ area: 'domain', level: 'read' }, (r) => openItem(r, id(r), 'domain', 'read'));
    routes.otherArea = routeWith({ area: 'domain', level: 'read' }, (r) => openItem(r, id(r), 'service_ftp', 'read'));
    routes.otherLevel = routeWith({ area: 'domain', level: 'read' }, (r) => openItem(r, id(r), 'domain', 'write'));
    routes.anyOf = routeWith({ anyOf: ['service', 'service_ftp'], level: 'read' }, (r) => openService(r, id(r), 'any', 'read'));
    routes.anyOfLevel = routeWith({ anyOf: ['service', 'service_ftp'], level: 'write' }, (r) => openService(r, id(r), 'any', 'read'));
    routes.anyOfArea = routeWith({ anyOf: ['service'], level: 'read' }, (r) => openService(r, id(r), 'service_ftp', 'read'));
    routes.alsoWrite = routeWith({ area: 'service_ftp', level: 'write', alsoWrite: ['service_ddbb'] }, (r) =>
      openService(r, id(r), 'service_ftp', 'write', { alsoWrite: ['service_ddbb'] }),
    );
    routes.alsoWriteMissing = routeWith({ area: 'service_ftp', level: 'write', alsoWrite: ['service_ddbb'] }, (r) =>
      openService(r, id(r), 'service_ftp', 'write'),
    );
    routes.alsoWriteExtra = routeWith({ area: 'service_ftp', level: 'write' }, (r) =>
      openService(r, id(r), 'service_ftp', 'write', { alsoWrite: ['service_ddbb'] }),
    );
  });
  afterAll(() => ctx.close());

  const status = async (name: string) => (await send(ctx.app, 'GET', routes[name](acc.items['open.test']), await acc.as('owner'))).status;

  it('opens the item when the handler asks for what the table declares', async () => {
    expect(await status('same')).toBe(200);
    expect(await status('anyOf')).toBe(200);
    expect(await status('alsoWrite')).toBe(200);
  });

  it('fails with 500, not a grant, when a handler opens another area or level than the one declared', async () => {
    expect(await status('otherArea')).toBe(500);
    expect(await status('otherLevel')).toBe(500);
    expect(await status('anyOfLevel')).toBe(500);
    expect(await status('anyOfArea')).toBe(500);
  });

  it('fails with 500 when the areas a handler also needs write on differ from the declared ones', async () => {
    expect(await status('alsoWriteMissing')).toBe(500);
    expect(await status('alsoWriteExtra')).toBe(500);
  });
});
