import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { isStoredId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { presentEvent } from './present.ts';
import { eventPage, filteredEvents, visibleTo } from './query.ts';

/** GET /activity/: one page of the log the signed-in user may read, filtered (decision 023). */
export default async function activityRoutes(app: FastifyInstance) {
  const { store } = app.runtime;
  route(app, endpoints.activity.list, async (request) => {
    const { page, item, area, actor, from, to } = request.query;
    // An id no item can have matches nothing, like an item the user may not see.
    if (item && !isStoredId(Number(item))) return { data: { events: [], total: 0, page } };
    const filters = { item: item ? Number(item) : undefined, area: area || undefined, actor, from: from || undefined, to: to || undefined };
    const { rows, total } = await eventPage(visibleTo(store, filteredEvents(store, filters), request.user!), page);
    return { data: { events: rows.map(presentEvent), total, page } };
  });
}
