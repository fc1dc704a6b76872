import { ACME_STEPS, type Subdomain } from '@atalaya/contract';
import { Alert, Checkbox, Stack, Stepper, Switch, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { siteQuery, sitesKey, switchAcme } from '../api/sites.ts';

const POLL_MS = 1000;

interface Props {
  serviceId: string;
  reference: string;
  site: Subdomain;
}

/**
 * The free certificate of the SSL dialog (decision 019): one switch (and the wildcard), then the
 * issuance's steps as the server reports them, until installed or refused with the reason.
 */
export function FreeCertificate({ serviceId, reference, site }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [wildcard, setWildcard] = useState(site.ssl.acme.wildcard);
  const { data } = useQuery({
    ...siteQuery(serviceId, site.id),
    initialData: site,
    refetchInterval: (query) => (query.state.data?.ssl.acme.status === 'working' ? POLL_MS : false),
  });
  const acme = (data ?? site).ssl.acme;
  // When the issuance ends, the cards (SSL on, the certificate's details) are read again.
  useEffect(() => {
    if (acme.status === 'done' || acme.status === 'failed')
      void client.invalidateQueries({ queryKey: [...sitesKey(serviceId), 'subdomains'] });
  }, [acme.status, client, serviceId]);
  const { check } = usePermissions(serviceId);
  const mutation = useFormMutation({
    permission: { check, call: endpoints.sites.acme },
    send: (active: boolean) => switchAcme(serviceId, site.id, active, wildcard),
    inputs: ['active', 'wildcard'],
    onDone: (result) => client.setQueryData(siteQuery(serviceId, site.id).queryKey, result.data.subdomain),
    reload: [sitesKey(serviceId)],
  });
  const active = ACME_STEPS.indexOf(acme.step ?? 'order');
  const steps = acme.status === 'done' ? ACME_STEPS.length : active;
  const refused = fieldError(mutation.error, 'active') ?? fieldError(mutation.error, 'wildcard');

  return (
    <Stack gap="xs" data-testid="free-certificate">
      <Switch
        label={t('sites.acme_switch')}
        description={t('sites.acme_help')}
        checked={acme.enabled}
        disabled={mutation.isPending || acme.status === 'working'}
        onChange={(e) => mutation.mutate(e.currentTarget.checked)}
      />
      <Checkbox
        label={t('sites.acme_wildcard', { reference })}
        checked={wildcard}
        disabled={acme.enabled}
        onChange={(e) => setWildcard(e.currentTarget.checked)}
      />
      {refused && (
        <Text size="sm" c="red" role="alert">
          {refused}
        </Text>
      )}
      {acme.enabled && acme.status !== 'off' && (
        <Stepper active={steps} size="xs" orientation="vertical" aria-label={t('sites.acme_progress')}>
          {ACME_STEPS.map((step, index) => (
            <Stepper.Step
              key={step}
              label={t(`sites.acme_step_${step}`)}
              loading={acme.status === 'working' && index === active}
              color={acme.status === 'failed' && index === active ? 'red' : undefined}
            />
          ))}
        </Stepper>
      )}
      {acme.status === 'done' && (
        <Text size="sm" role="status" data-testid="acme-done">
          {t('sites.acme_done')}
        </Text>
      )}
      {acme.status === 'failed' && acme.error && (
        <Alert color="red" title={t('sites.acme_failed')} data-testid="acme-failed">
          {acme.error}
        </Alert>
      )}
    </Stack>
  );
}
