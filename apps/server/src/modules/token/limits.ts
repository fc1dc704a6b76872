import { TOKEN_LIMITS } from '@atalaya/contract';
import type { Limit } from '../account/ratelimit.ts';

/** Calls per token and minute, shared by every process: a leaked or runaway script cannot flood the panel. */
export const tokenLimit = (tokenId: number): Limit => ({ key: `token:${tokenId}`, max: TOKEN_LIMITS.perMinute, windowSeconds: 60 });
