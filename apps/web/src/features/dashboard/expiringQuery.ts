import { queryOptions } from '@tanstack/react-query';
import { fetchData } from '../../lib/api.ts';
import { endpoints } from '../../lib/endpoints.ts';

/**
 * The dashboard's "expiring soon" list. The entry asks for it on /admin/ with the other start-up
 * calls (lib/startupCalls.ts, adopted in start.tsx), so the dashboard renders once, complete,
 * instead of drawing its frame and then the card a round trip later. `staleTime`: that answer is
 * less than a second old when the dashboard mounts, and a refetch at mount would only repeat it.
 */
export const expiringQuery = queryOptions({
  queryKey: ['expiring'],
  queryFn: () => fetchData(endpoints.expiry.list, {}).then((d) => d.expiring),
  staleTime: 30_000,
});
