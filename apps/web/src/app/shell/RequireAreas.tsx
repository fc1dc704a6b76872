import type { Area } from '@atalaya/contract';
import { Outlet, useParams } from 'react-router';
import { canSeeAny, useItemPermissions } from '../../lib/permissions.ts';
import { NotFoundView } from './NotFoundView.tsx';

/** A page of an item shows the 404 view unless one of its areas is visible (spec §6). */
export function RequireAreas({ areas }: { areas: readonly Area[] }) {
  const { id = '' } = useParams();
  const { data, isError } = useItemPermissions(id);
  if (isError) return <NotFoundView />;
  if (!data) return null;
  return canSeeAny(data.permissions, areas) ? <Outlet /> : <NotFoundView />;
}
