import { canSee } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { openItem } from '../permission/open.ts';

/** The mail service behind /service/{id}/correo|alias/: the mail area must be visible too. */
export async function mailAccess(
  request: FastifyRequest,
  id: string,
  area: 'servicemail_accounts' | 'servicemail_alias',
  level: 'read' | 'write',
) {
  const access = await openItem(request, id, area, level);
  if (!canSee(access.permissions, 'servicemail')) throw notFound();
  const mail = await request.server.store.selectFrom('mail_service').selectAll().where('item_id', '=', access.itemId).executeTakeFirst();
  if (!mail) throw notFound();
  return { access, mail };
}
