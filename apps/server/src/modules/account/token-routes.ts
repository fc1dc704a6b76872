import { endpoints, expiryOf } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { FieldErrors, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { recordActivity } from '../activity/record.ts';
import { createToken, levelCeiling, listTokens, revokeToken, specProblems } from '../token/tokens.ts';
import { createMailer } from './mailer.ts';
import { reauthenticate } from './reauth.ts';
import { tellHolder } from './security-notice.ts';

/** The user's API tokens, in Preferences: list, create (after the current password) and revoke. Never reached by a token. */
export default async function tokenRoutes(app: FastifyInstance) {
  const { store, config, secrets } = app.runtime;
  const mailer = createMailer(config);
  route(app, endpoints.account.tokenList, async (request) => {
    const user = request.user!;
    return { data: { tokens: await listTokens(store, user.id), ceiling: await levelCeiling(store, user) } };
  });

  route(app, endpoints.account.tokenCreate, async (request) => {
    const user = request.user!;
    const input = request.body;
    const account = { store, secrets, ip: request.ip };
    await reauthenticate(account, user, { password: input.password, code: input.code }, 'token_create');
    const spec = {
      name: input.name,
      scope: input.scope,
      items: input.items?.length ? input.items : null,
      cidrs: input.cidrs ?? [],
      expiresAt: input.expires ? expiryOf(input.expires) : null,
    };
    const problems = await specProblems(store, user, spec);
    if (problems.length) throw new FieldErrors(problems.map((p) => ({ input: p.field, key: p.key })));
    const { token, id } = await createToken(store, user.id, spec);
    const detail = { token: id, name: spec.name };
    await recordActivity(store, {
      action: 'token_create',
      outcome: 'success',
      userId: user.id,
      realmId: user.realmId,
      ip: request.ip,
      detail,
    });
    await tellHolder(app, request, mailer, 'token_created');
    const item = (await listTokens(store, user.id)).find((t) => t.id === id)!;
    return { data: { token, item }, info: [{ key: 'account.token_created' }] };
  });

  route(app, endpoints.account.tokenRevoke, async (request) => {
    const user = request.user!;
    const id = pathId(request.params.id);
    if (!(await revokeToken(store, user.id, id))) throw notFound();
    await recordActivity(store, {
      action: 'token_revoke',
      outcome: 'success',
      userId: user.id,
      realmId: user.realmId,
      ip: request.ip,
      detail: { token: id },
    });
    return { data: null, info: [{ key: 'account.token_revoked' }] };
  });
}
