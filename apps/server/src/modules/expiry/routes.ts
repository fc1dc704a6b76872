import { canSee, endpoints, type PermissionMap } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { tokenAreas, tokenItems } from '../token/tokens.ts';
import { AREA_OF, expiringThings } from './expiring.ts';

const DAY = 86_400;

/** GET /expiring/: the dashboard's "expiring soon" list, within the largest warning offset, of what the user can see. */
export default async function expiryRoutes(app: FastifyInstance) {
  route(app, endpoints.expiry.list, async (request) => {
    const user = request.user!;
    const rows = await app.store
      .selectFrom('permission')
      .innerJoin('item', 'item.id', 'permission.item_id')
      .select(['permission.item_id', 'permission.area', 'permission.level'])
      .where('permission.user_id', '=', user.id)
      .where('item.realm_id', '=', user.realmId)
      .where('permission.level', 'in', ['read', 'write'])
      .$if(tokenAreas(user) !== null, (qb) => qb.where('permission.area', 'in', tokenAreas(user)!))
      .$if(tokenItems(user) !== null, (qb) => qb.where('permission.item_id', 'in', tokenItems(user)!))
      .execute();
    const maps = new Map<number, PermissionMap>();
    for (const row of rows) maps.set(row.item_id, { ...maps.get(row.item_id), [row.area]: row.level });
    const until = now() + Math.max(...app.config.expiry.warnDays) * DAY;
    const things = await expiringThings(app.store, until, [...maps.keys()]);
    const expiring = things.filter((t) => canSee(maps.get(t.itemId), AREA_OF[t.kind])).map(({ subjectId: _, ...t }) => t);
    return { data: { expiring } };
  });
}
