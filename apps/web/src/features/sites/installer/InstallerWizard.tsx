import { generatePassword, type Subdomain } from '@atalaya/contract';
import { Button, Group, Select, Stack, Stepper, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { ApiFailure } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { createDatabase, ddbbQuery, serviceKey, serviceQuery } from '../../../lib/hosting.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { errorText } from '../../../lib/notify.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { catalogueQuery, installApp } from '../api/installer.ts';
import { AppPicker } from './AppPicker.tsx';
import { ConfigStep } from './ConfigStep.tsx';
import { InstallErrorDialog } from './InstallErrorDialog.tsx';
import { InstallProgress } from './InstallProgress.tsx';
import { PathStep } from './PathStep.tsx';
import { configFields, defaultsFor, initialState, missingInputs, type Step, type WizardState } from './state.ts';

interface Props {
  serviceId: string;
  sites: Subdomain[];
  /** The site it was launched from (step 0 skipped), or null. */
  launchedFrom: number | null;
  opened: boolean;
  onClose: () => void;
}

/** docs/behaviour/service-area-dns.md#states: choose site (0), application (1), path and database (2), configuration and install (3). */
export function InstallerWizard({ serviceId, sites, launchedFrom, opened, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const { check } = usePermissions(serviceId);
  const [state, setState] = useState<WizardState>(() => initialState(launchedFrom));
  const [password, setPassword] = useState(generatePassword);
  const [missing, setMissing] = useState<string[]>([]);
  const [installation, setInstallation] = useState<{ id: number; name: string } | null>(null);
  const [jobError, setJobError] = useState<{ name: string; message: string } | null>(null);
  const catalogue = useQuery({ ...catalogueQuery, enabled: opened });
  const needsDb = opened && (state.app?.isBBDDApplication ?? false);
  const databases = useQuery({ ...ddbbQuery(Number(serviceId)), enabled: needsDb });
  const service = useQuery({ ...serviceQuery(Number(serviceId)), enabled: needsDb });

  useEffect(() => {
    if (!opened) return;
    setState(initialState(launchedFrom));
    setInstallation(null);
    setMissing([]);
    setJobError(null);
  }, [opened, launchedFrom]);

  const patch = (p: Partial<WizardState>) => setState((s) => ({ ...s, ...p }));
  const go = (step: Step) => patch({ step });
  const firstStep: Step = launchedFrom === null ? 0 : 1;
  const back = () => (state.step <= firstStep ? setState(initialState(launchedFrom)) : go((state.step - 1) as Step));
  const forcedNew = needsDb && databases.data !== undefined && databases.data.length === 0;

  // The database (when a new one is due) and the installation are one write: the permissions are
  // read again first, and a missing one shows "no permission" and closes the wizard.
  const installing = useFormMutation({
    opened,
    permission: { check, call: endpoints.sites.install },
    send: async (chosen: WizardState & { app: NonNullable<WizardState['app']>; siteId: number }) => {
      let database = chosen.database;
      if (chosen.app.isBBDDApplication && (forcedNew || database === 'new')) {
        database = (await createDatabase(Number(serviceId), password)).data.ddbb.id;
        // A retry after a failed install reuses the database just created.
        patch({ database });
        client.invalidateQueries({ queryKey: serviceKey(Number(serviceId)) });
      }
      return installApp(serviceId, {
        subdomainID: chosen.siteId,
        applicationID: chosen.app.id,
        mysqlID: chosen.app.isBBDDApplication && typeof database === 'number' ? database : '',
        subpath: chosen.subpath,
        overwrite: chosen.overwrite ? '1' : '0',
        ...configFields(chosen),
      });
    },
    onDone: (started) => setInstallation({ id: started.id, name: started.fullName }),
    onClose,
    staysOpen: true,
    // A refusal shows in the wizard: under its field (back on the path step), else in the error dialog.
    showsFailures: true,
  });
  const error = (input: string) => (missing.includes(input) ? t('sites.required') : fieldError(installing.error, input));
  const install = () => {
    const absent = missingInputs(state);
    setMissing(absent);
    const { app, siteId } = state;
    if (absent.length > 0 || !app || siteId === null) return;
    installing.mutate(
      { ...state, app, siteId },
      {
        onError: (caught) => {
          const fieldNames = caught instanceof ApiFailure ? caught.inputs : [];
          if (fieldNames.length === 0 || fieldNames.includes('form')) {
            setJobError({
              name: caught instanceof ApiFailure ? `${t('sites.error_name')} ${caught.status}` : t('sites.error_name'),
              message: errorText(caught),
            });
          } else if (fieldNames.some((f) => f === 'subpath' || f === 'mysqlID' || f === 'password')) go(2);
        },
      },
    );
  };
  const onFailed = useCallback(
    (message: string) => setJobError({ name: installation?.name ?? t('sites.install_error'), message }),
    [installation?.name, t],
  );

  const site = sites.find((s) => s.id === state.siteId);
  const canNext =
    (state.step === 0 && state.siteId !== null) ||
    (state.step === 2 &&
      (!state.app?.isBBDDApplication || forcedNew || state.database !== null) &&
      (state.database !== 'new' || password !== ''));

  return (
    <Dialog opened={opened} onClose={onClose} title={t('sites.install')} size="xl">
      {installation ? (
        <Stack>
          <InstallProgress serviceId={serviceId} installationId={installation.id} name={installation.name} onFailed={onFailed} />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('sites.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Stepper active={state.step} size="sm" allowNextStepsSelect={false}>
            <Stepper.Step label={t('sites.step_site')}>
              <Select
                label={t('sites.choose_site')}
                data={sites.map((s) => ({ value: String(s.id), label: `${s.subdominio}.${s.referencePunycode}` }))}
                value={state.siteId === null ? null : String(state.siteId)}
                onChange={(v) => patch({ siteId: v ? Number(v) : null })}
              />
            </Stepper.Step>
            <Stepper.Step label={t('sites.step_app')}>
              {catalogue.data && (
                <AppPicker
                  apps={catalogue.data.apps}
                  token={catalogue.data.token}
                  onPick={(app) => patch({ app, step: 2, database: null, ...defaultsFor(app, i18n.language) })}
                />
              )}
            </Stepper.Step>
            <Stepper.Step label={t('sites.step_path')}>
              <PathStep
                state={state}
                site={site}
                databases={databases.data}
                databaseLimit={service.data?.usage.BBDD.limit ?? 0}
                password={password}
                onPassword={setPassword}
                onRegenerate={() => setPassword(generatePassword())}
                onChange={patch}
                error={error}
              />
            </Stepper.Step>
            <Stepper.Step label={t('sites.step_config')}>
              <ConfigStep
                state={state}
                error={error}
                setValue={(name, value) => setState((s) => ({ ...s, values: { ...s.values, [name]: value } }))}
                setChecked={(name, checked) => setState((s) => ({ ...s, checked: { ...s.checked, [name]: checked } }))}
              />
            </Stepper.Step>
          </Stepper>
          {state.app && state.step > 1 && (
            <Text size="sm" c="dimmed">
              {state.app.fullName}
            </Text>
          )}
          <Group justify="space-between">
            <Button variant="default" onClick={back}>
              {t('sites.back')}
            </Button>
            {state.step === 3 ? (
              <Button onClick={install} loading={installing.isPending}>
                {t('sites.do_install')}
              </Button>
            ) : (
              state.step !== 1 && (
                <Button onClick={() => go((state.step + 1) as Step)} disabled={!canNext}>
                  {t('sites.next')}
                </Button>
              )
            )}
          </Group>
        </Stack>
      )}
      <InstallErrorDialog error={jobError} onAccept={() => setJobError(null)} />
    </Dialog>
  );
}
