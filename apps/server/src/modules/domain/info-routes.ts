import { type DomainToggle, endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { DomainInfo, DomainStatus } from '../../drivers/registry/interface.ts';
import { noteChanges } from '../../http/actor.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { callerKey } from '../session/auth-cache.ts';
import { domainAsItIs, domainOf, toggleOf } from './access.ts';
import { awaitChange, openChanges, queueFromRequest, refuseBlocked } from './changes.ts';
import { dayText } from './owner.ts';
import { viaRegistry } from './refusals.ts';
import { toDomainAnswer } from './view.ts';

/** GET /domain/{id}/, the three toggles and the reveal of the auth code or transfer key. */
export default async function infoRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  route(app, endpoints.domain.get, async (request) => {
    // A read: a domain the registry has not got reads as not registered, and nothing is written there.
    const { access, info } = await domainAsItIs(request);
    const language = requestLanguage(request);
    // Each caller's answer is kept too, so that it is checked and written once (http/serializer.ts).
    const key = `domain:${info.itemId}:${callerKey(request.user!)}:${language}`;
    return {
      data: await request.server.authCache.remember(key, async () =>
        toDomainAnswer(info, access, language, await openChanges(store, info.itemId, language)),
      ),
    };
  });

  route(app, endpoints.domain.toggle, async (request) => {
    // The write check on the toggle's own area comes first: nothing changes for a user who may only look.
    const { toggle, access, info } = await toggleOf(request);
    const { action, payload, on, asked } = toggleChange(info, toggle);
    // A change of owner's transfer lock holds until its date: the schedule lifts it then.
    if (toggle === 'transferblock' && !on && info.transferLockUntil > now())
      throw new ApiError(409, 'domain.transfer_locked', { date: dayText(info.transferLockUntil) });
    if (toggle !== 'block') refuseBlocked(info);
    await queueFromRequest(request, info.itemId, action, payload);
    const language = requestLanguage(request);
    // The domain as asked, with the change pending in `changes` until the registry has applied it.
    const changes = await openChanges(store, info.itemId, language);
    return { data: toDomainAnswer(asked, access, language, changes), info: [{ key: `domain.${toggle}_${on ? 'on' : 'off'}` }] };
  });

  for (const kind of ['authcode', 'transferkey'] as const) {
    route(app, endpoints.domain[kind], async (request) => {
      const { info, registry } = await domainOf(request);
      if (info.authKind !== kind) throw notFound();
      // A credential (decision 051): its entry asks a session that writes the area, so the caller may
      // make one for a domain registered without it, at the registry through the queue as every
      // registry write (decision 052), then read back. The reveal is recorded: which, never its value.
      let secret = await viaRegistry(() => registry.authInfo(info.itemId));
      if (secret === null) {
        const change = await queueFromRequest(request, info.itemId, 'authInfoCreate', {});
        if ((await viaRegistry(() => awaitChange(store, change, config.jobs.waitSeconds))) === 'pending')
          throw new ApiError(409, 'domain.change_pending');
        secret = await viaRegistry(() => registry.authInfo(info.itemId));
        if (secret === null) throw new ApiError(409, 'domain.change_pending');
      }
      noteChanges(request, null, { revealed: kind });
      return { data: kind === 'authcode' ? { authCode: secret } : { transferkey: secret } };
    });
  }
}

/** The change one toggle queues (the opposite of the registry's current state) and the domain as asked. */
function toggleChange(info: DomainInfo, toggle: DomainToggle): { action: string; payload: unknown; on: boolean; asked: DomainInfo } {
  if (toggle === 'whoisprivacy') {
    const on = !info.privacy;
    return { action: 'privacy', payload: { on }, on, asked: { ...info, privacy: on } };
  }
  const status: DomainStatus = toggle === 'block' ? 'clientUpdateProhibited' : 'clientTransferProhibited';
  const on = !info.statuses.includes(status);
  const rest = info.statuses.filter((s) => s !== status && s !== 'ok');
  const statuses: DomainStatus[] = on ? [...rest, status] : rest;
  return { action: 'status', payload: { status, on }, on, asked: { ...info, statuses: statuses.length ? statuses : ['ok'] } };
}
