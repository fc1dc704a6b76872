import { queryOptions } from '@tanstack/react-query';
import { pollWhilePending } from '../components/hosting/StateBadge.tsx';
import { call, fetchData } from './api.ts';
import { endpoints } from './endpoints.ts';

/**
 * The hosting service's queries that more than one screen reads (the service screens and the
 * application installer), under one cache key each, so every screen stays in step.
 */
export const serviceKey = (id: number) => ['service', id] as const;
/** GET /service/{id}/; polls while a change waits for its backend. */
export const serviceQuery = (id: number) =>
  queryOptions({
    queryKey: serviceKey(id),
    queryFn: () => fetchData(endpoints.service.get, { id }).then((d) => d.service),
    refetchInterval: (q) => pollWhilePending(q.state.data ? [q.state.data] : undefined),
  });

export const ddbbKey = (id: number) => ['service', id, 'ddbb'] as const;
export const ddbbQuery = (id: number) =>
  queryOptions({
    queryKey: ddbbKey(id),
    queryFn: () => fetchData(endpoints.service.ddbbList, { id }).then((d) => d.ddbb),
    refetchInterval: (q) => pollWhilePending(q.state.data),
  });
export const createDatabase = (id: number, password: string) => call(endpoints.service.ddbbCreate, { id }, { password });
