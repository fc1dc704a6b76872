import { randomBytes } from 'node:crypto';
import { endpoints, expiryOf } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { resetFactors } from '../factors/reset.ts';
import {
  createItem,
  createRealm,
  createUser,
  findUser,
  grant,
  parsePermissionMap,
  resetPassword,
  setServiceLimits,
} from '../provisioning/accounts.ts';
import { refusedAs422, setItemSuspended, setRealmSuspended } from './provision.ts';
import { terminateItem, terminateRealm } from './termination.ts';

/** A password the panel makes up when the billing system sends none: shown once, in the answer. */
const generated = (password: string | undefined) =>
  password === undefined ? { password: randomBytes(12).toString('base64url'), shown: true } : { password, shown: false };

/** What the CLI's provisioning commands do, over HTTP: each call runs the CLI's own function. */
export default async function provisionRoutes(app: FastifyInstance) {
  const { store } = app.runtime;

  route(app, endpoints.operator.realmCreate, async (request) => ({
    data: await refusedAs422(() => createRealm(store, request.body.realm)),
  }));

  route(app, endpoints.operator.realmSuspend, async (request) => ({
    data: await refusedAs422(() => setRealmSuspended(store, request.body.realm, true)),
  }));

  route(app, endpoints.operator.realmUnsuspend, async (request) => ({
    data: await refusedAs422(() => setRealmSuspended(store, request.body.realm, false)),
  }));

  route(app, endpoints.operator.realmDelete, async (request) => ({
    data: await refusedAs422(() => terminateRealm(store, request.body.realm, request.body.graceDays)),
  }));

  route(app, endpoints.operator.userCreate, async (request) => {
    const { realm, username } = request.body;
    const { password, shown } = generated(request.body.password);
    const user = await refusedAs422(() => createUser(store, realm, username, password));
    return { data: { ...user, ...(shown ? { password } : {}) } };
  });

  route(app, endpoints.operator.userPassword, async (request) => {
    const { realm, username } = request.body;
    const { password, shown } = generated(request.body.password);
    await refusedAs422(() => resetPassword(store, realm, username, password));
    const user = await refusedAs422(() => findUser(store, realm, username));
    return { data: { id: user.id, username: user.username, ...(shown ? { password } : {}) } };
  });

  route(app, endpoints.operator.userFactorsReset, async (request) => {
    const user = await refusedAs422(() => findUser(store, request.body.realm, request.body.username));
    return { data: { removed: await resetFactors(store, { id: user.id, realmId: user.realm_id }) } };
  });

  route(app, endpoints.operator.itemCreate, async (request) => {
    const { expires, ...spec } = request.body;
    // The contract checked the date's shape; the expiry is the start of that day (UTC).
    const expireAt = expires === undefined ? undefined : (expiryOf(expires) ?? 0) - 86_400;
    const item = await refusedAs422(() => createItem(store, { ...spec, expireAt }));
    return { data: { ...item, suspended: false } };
  });

  route(app, endpoints.operator.itemSuspend, async (request) => ({
    data: await refusedAs422(() => setItemSuspended(store, request.body.realm, request.body.reference, true)),
  }));

  route(app, endpoints.operator.itemUnsuspend, async (request) => ({
    data: await refusedAs422(() => setItemSuspended(store, request.body.realm, request.body.reference, false)),
  }));

  route(app, endpoints.operator.itemDelete, async (request) => ({
    data: await refusedAs422(() => terminateItem(store, request.body.realm, request.body.reference, request.body.graceDays)),
  }));

  route(app, endpoints.operator.grant, async (request) => {
    const { realm, username, reference, areas } = request.body;
    await refusedAs422(() => grant(store, realm, username, reference, parsePermissionMap(areas)));
    return { data: { done: true as const } };
  });

  route(app, endpoints.operator.serviceLimits, async (request) => {
    const { realm, reference, ...limits } = request.body;
    await refusedAs422(() => setServiceLimits(store, realm, reference, limits));
    return { data: { done: true as const } };
  });
}
