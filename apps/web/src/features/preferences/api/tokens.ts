import { queryOptions } from '@tanstack/react-query';
import { call, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** GET /user/tokens/: the user's tokens and the ceiling of a new one's scope. */
export const tokensQuery = queryOptions({ queryKey: ['tokens'], queryFn: () => fetchData(endpoints.account.tokenList, {}) });

export interface TokenFields {
  name: string;
  password: string;
  /** area=level pairs, as the contract's levelsText writes them. */
  scope: string;
  items: number[];
  expires: string;
  cidrs: string;
}

/** POST /user/tokens/create/: the answer holds the token's secret, the only time it is shown. */
export const createToken = (fields: TokenFields) => call(endpoints.account.tokenCreate, {}, { ...fields });

export const revokeToken = (id: number) => call(endpoints.account.tokenRevoke, { id });
