import { OPERATOR_LIMITS, TOKEN_LIMITS } from '@atalaya/contract';
import type { Limit } from '../../kernel/ratelimit.ts';

/** Calls per token and minute, shared by every process: a leaked or runaway script cannot flood the panel. */
export const tokenLimit = (tokenId: number): Limit => ({ key: `token:${tokenId}`, max: TOKEN_LIMITS.perMinute, windowSeconds: 60 });

/** Calls per operator token and minute, in the same shared counter: a billing system's runaway retry loop cannot flood the panel. */
export const operatorLimit = (operatorId: number): Limit => ({
  key: `operator:${operatorId}`,
  max: OPERATOR_LIMITS.perMinute,
  windowSeconds: 60,
});
