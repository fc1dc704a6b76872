import { queryOptions } from '@tanstack/react-query';
import { fetchData } from '../../lib/api.ts';
import { endpoints } from '../../lib/endpoints.ts';

export const STARTUP_ANSWER_FRESH_MS = 10_000;

/** When the answer the entry asked for at start-up was stored (app/App.tsx, adoptExpiring). */
let startupAnswerAt = -1;

/** The start-up answer is the query's data since `updatedAt`. */
export const markStartupAnswer = (updatedAt: number | undefined) => {
  startupAnswerAt = updatedAt || -1; // 0: no answer stored (refused or failed)
};

/**
 * The dashboard's "expiring soon" list. The entry asks for it on /admin/ with the other start-up
 * calls (lib/startupCalls.ts, adopted in start.tsx), so the dashboard renders once, complete,
 * instead of drawing its frame and then the card a round trip later. That answer counts as fresh
 * for its first seconds: it is less than a second old when the dashboard mounts, and a refetch
 * there would only repeat it. Any other answer is stale at once, as before (each visit to the
 * dashboard asks again).
 */
export const expiringQuery = queryOptions({
  queryKey: ['expiring'],
  queryFn: () => fetchData(endpoints.expiry.list, {}).then((d) => d.expiring),
  staleTime: (query) => (query.state.dataUpdatedAt === startupAnswerAt ? STARTUP_ANSWER_FRESH_MS : 0),
});
