import { activityPageSchema, activityQuerySchema } from '../activity.ts';
import { endpoint, SIGNED_IN } from './endpoint.ts';

/** The Activity page: the events of what the signed-in user may see, filtered and paged on the server. */
export const activity = {
  list: endpoint({ method: 'GET', path: '/activity/', query: activityQuerySchema, answer: activityPageSchema, permission: SIGNED_IN }),
};
