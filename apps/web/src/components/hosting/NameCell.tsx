import type { BackendState } from '@atalaya/contract';
import { Table } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import { StateBadge } from './StateBadge.tsx';

interface Props {
  name: string;
  /** Where the row's last change stands and the job that applies it. */
  row: { state: BackendState; job: number | null; waitingFor?: string };
  itemId: number;
  /** The list the row is in: a retry reloads it. */
  listKey: QueryKey;
  /** The user may write the list, so a failed row offers the retry. */
  writable: boolean;
}

/** A backend row's first cell (an FTP user, a mail account or alias): its name and where its last change stands. */
export function NameCell({ name, row, itemId, listKey, writable }: Props) {
  return (
    <Table.Td>
      {name}
      <StateBadge state={row.state} waitingFor={row.waitingFor} retry={writable && { itemId, job: row.job, listKey, name }} />
    </Table.Td>
  );
}
