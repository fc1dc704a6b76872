import { z } from 'zod';
import { expiringSchema } from '../expiry.ts';
import { endpoint, SIGNED_IN } from './endpoint.ts';

/** The dashboard's "expiring soon" list: what the signed-in user can see that expires within the warning window. */
export const expiry = {
  list: endpoint({ method: 'GET', path: '/expiring/', answer: z.object({ expiring: z.array(expiringSchema) }), permission: SIGNED_IN }),
};
