import { Loader, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { allowsCall, seesCall, setItemPermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { domainQuery } from './api/domain.ts';
import { ActionsCard } from './components/ActionsCard.tsx';
import { AuthCodeCard } from './components/AuthCodeCard.tsx';
import { ContactsCard } from './components/ContactsCard.tsx';
import { DelegationCard } from './components/DelegationCard.tsx';
import { LifeCard } from './components/LifeCard.tsx';
import { RegisterCard } from './components/RegisterCard.tsx';
import { RegistryChanges } from './components/RegistryChanges.tsx';
import { ServerStatuses } from './components/ServerStatuses.tsx';
import { SummaryCard } from './components/SummaryCard.tsx';
import { TransferCard } from './components/TransferCard.tsx';

/** /admin/{id}/domain/: summary, domain actions, auth code or transfer key, contacts (docs/behaviour/shell-session-domains.md#domain-page). */
export default function DomainPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const itemId = Number(id);
  const client = useQueryClient();
  const query = useQuery(domainQuery(itemId));
  const permissions = query.data?.domain.permissions;
  // The domain answer carries the user's permissions: they refresh the shell's (docs/behaviour/shell-session-domains.md#permissions).
  useEffect(() => {
    if (permissions) setItemPermissions(client, itemId, permissions);
  }, [client, itemId, permissions]);

  // A failed load is the route's error (app/shell/RouteError.tsx): the 404 view.
  if (query.isError && !query.data) throw query.error;
  if (!query.data) return <Loader aria-label={t('main.loading')} />;
  const data = query.data;
  const { domain } = data;
  // Not at its registry yet: nothing here acts on it but its registration (decision 051).
  if (!domain.registered) {
    return (
      <Stack>
        <RegistryChanges data={data} />
        <RegisterCard data={data} />
      </Stack>
    );
  }
  // Held at another registrar: nothing here acts on it but its transfer in.
  if (domain.heldBy !== null) {
    return (
      <Stack>
        <RegistryChanges data={data} />
        <TransferCard data={data} />
      </Stack>
    );
  }
  return (
    <Stack>
      <ServerStatuses domain={domain} />
      <RegistryChanges data={data} />
      {domain.pendingTransfer && <TransferCard data={data} />}
      <LifeCard data={data} />
      <SummaryCard data={data} />
      <DelegationCard id={domain.id} name={domain.name} />
      <ActionsCard data={data} />
      {seesCall(domain.permissions, endpoints.domain.authcode) && (
        <AuthCodeCard
          id={domain.id}
          kind={domain.transferkey ? 'transferkey' : 'authcode'}
          isSet={domain.hasAuthCode}
          canReveal={allowsCall(domain.permissions, endpoints.domain.authcode)}
        />
      )}
      <ContactsCard data={data} />
    </Stack>
  );
}
