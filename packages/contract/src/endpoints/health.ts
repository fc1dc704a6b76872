import { z } from 'zod';
import { endpoint } from './endpoint.ts';

const status = z.object({ status: z.string(), reason: z.string().optional() });

/** For a load balancer: liveness, and readiness (the store answers, every migration applied; else 503). */
export const health = {
  live: endpoint({ method: 'GET', path: '/health', answer: status, permission: { public: 'read' } }),
  ready: endpoint({ method: 'GET', path: '/ready', answer: status, permission: { public: 'read' } }),
};
