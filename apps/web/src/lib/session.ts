import type { UserInfo } from '@atalaya/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { answerOf, call } from './api.ts';
import { endpoints } from './endpoints.ts';

export type { UserInfo };

/**
 * Without a session the server answers 101; at start-up that only means "not signed in", so the
 * call is made as already replayed and the login modal stays shut.
 */
export const fetchUserInfo = (sent?: Promise<Response>) =>
  (sent ? answerOf<UserInfo>(sent) : call(endpoints.account.info, {}, {}, true)).then((r) => r.data).catch(() => null);

export const userInfoQuery = queryOptions({
  queryKey: ['user', 'info'],
  queryFn: () => fetchUserInfo(),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The signed-in user, or null. Loaded once at start-up (docs/behaviour/shell-session-domains.md#states), so it is never pending in screens. */
export function useUser() {
  return useQuery(userInfoQuery).data ?? null;
}
