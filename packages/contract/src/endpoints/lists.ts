import { itemPageQuery, itemPageSchema, listKindsSchema } from '../paging.ts';
import { endpoint, SIGNED_IN } from './endpoint.ts';

/**
 * The domain, service and mail lists, one page at a time (docs/decisions/025-paged-lists.md), and
 * which of them the user has at all (the side menu). Each row is an item the user may see that has
 * that kind; the old GET /permission/list/ still answers every item at once for older callers.
 */
export const lists = {
  domain: endpoint({ method: 'GET', path: '/list/domain/', query: itemPageQuery, answer: itemPageSchema, permission: SIGNED_IN }),
  service: endpoint({ method: 'GET', path: '/list/service/', query: itemPageQuery, answer: itemPageSchema, permission: SIGNED_IN }),
  mail: endpoint({ method: 'GET', path: '/list/mail/', query: itemPageQuery, answer: itemPageSchema, permission: SIGNED_IN }),
  kinds: endpoint({ method: 'GET', path: '/list/kinds/', answer: listKindsSchema, permission: SIGNED_IN }),
};
