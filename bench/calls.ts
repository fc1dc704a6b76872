/**
 * The calls every signed-in page makes, each with its budget (docs/design.md#budgets): the share of
 * the bare node:http server's requests/s, and a p99 where the budget names one.
 */
import type { LoadOptions } from './load.ts';

export interface Call {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  signedIn: boolean;
  minRatio: number;
  maxP99?: number;
}

export const callsFor = (domainId: number): Call[] => [
  { name: 'GET /p247/config/get/', path: '/p247/config/get/', method: 'GET', signedIn: false, minRatio: 0.6 },
  {
    name: `GET /p247/domain/${domainId}/ (signed in)`,
    path: `/p247/domain/${domainId}/`,
    method: 'GET',
    signedIn: true,
    minRatio: 0.35,
    maxP99: 10,
  },
  { name: 'POST /p247/user/info/ (signed in)', path: '/p247/user/info/', method: 'POST', signedIn: true, minRatio: 0.3 },
  { name: 'GET /p247/permission/list/ (demo realm)', path: '/p247/permission/list/', method: 'GET', signedIn: true, minRatio: 0.3 },
];

export const loadOptions = (call: Call, headers: Record<string, string>, seconds: number): LoadOptions => ({
  method: call.method,
  headers: call.signedIn ? headers : { 'x-dd-request': '1' },
  seconds,
});
