import { formatBytes, type MailAccount, type MailAlias } from '@atalaya/contract';
import { Badge, Button, Group, Menu, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { submitAutoForm } from '../../components/hosting/autoSubmit.ts';
import { NameCell } from '../../components/hosting/NameCell.tsx';
import { ChangePasswordDialog, ShowPasswordDialog } from '../../components/hosting/PasswordDialogs.tsx';
import { RowMenu } from '../../components/hosting/RowMenu.tsx';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog.tsx';
import { DataList } from '../../components/ui/DataList.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import {
  accountPassword,
  accountsKey,
  accountsQuery,
  aliasesKey,
  aliasesQuery,
  changeAccountPassword,
  deleteAccount,
  deleteAlias,
  webmailLogin,
} from './api/mail.ts';
import { AccountDialog } from './components/AccountDialog.tsx';
import { AliasDialog } from './components/AliasDialog.tsx';
import { DeliveryDialog } from './components/DeliveryDialog.tsx';
import { DkimDialog } from './components/DkimDialog.tsx';
import { MailConfigDialog } from './components/MailConfigDialog.tsx';
import { MailHealthCard } from './components/MailHealthCard.tsx';

type Row =
  | { type: 'account'; key: string; name: string; account: MailAccount }
  | { type: 'alias'; key: string; name: string; alias: MailAlias };
type Filter = 'all' | 'alias' | 'account';
type Open =
  | { kind: 'account' | 'alias' | 'config' | 'dkim' }
  | { kind: 'show' | 'password' | 'delivery' | 'delete-account'; account: MailAccount }
  | { kind: 'edit-alias' | 'delete-alias'; alias: MailAlias }
  | null;

/** /admin/{id}/mail/: accounts and aliases of the mail service in one list (docs/behaviour/service-area-dns.md#mail). */
export default function MailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { data: item, canCall, check } = usePermissions(id);
  const reference = item?.reference ?? '';
  const accounts = useQuery({ ...accountsQuery(id), enabled: canCall(endpoints.service.mailList) });
  const aliases = useQuery({ ...aliasesQuery(id), enabled: canCall(endpoints.service.aliasList) });
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const account = open && 'account' in open ? open.account : null;
  const alias = open && 'alias' in open ? open.alias : null;
  const removeAccount = useFormMutation({
    opened: open?.kind === 'delete-account',
    permission: { check, call: endpoints.service.mailDelete },
    send: () => deleteAccount(id, account!.id),
    reload: [accountsKey(id)],
    onClose: close,
    closeOnError: true,
  });
  const removeAlias = useFormMutation({
    opened: open?.kind === 'delete-alias',
    permission: { check, call: endpoints.service.aliasDelete },
    send: () => deleteAlias(id, alias!.id),
    reload: [aliasesKey(id)],
    onClose: close,
    closeOnError: true,
  });

  const seeAccounts = canCall(endpoints.service.mailList);
  const seeAliases = canCall(endpoints.service.aliasList);
  const loading = (seeAccounts && !accounts.data) || (seeAliases && !aliases.data);
  const rows = useMemo<Row[] | undefined>(() => {
    if (loading) return undefined;
    const list: Row[] = [];
    if (filter !== 'alias')
      for (const a of accounts.data?.correo ?? []) list.push({ type: 'account', key: `c${a.id}`, name: a.user, account: a });
    if (filter !== 'account')
      for (const a of aliases.data ?? [])
        list.push({ type: 'alias', key: `a${a.id}`, name: `${a.alias}@${a.referencePunycode}`, alias: a });
    return list.sort((x, y) => x.name.localeCompare(y.name));
  }, [loading, filter, accounts.data, aliases.data]);

  const writeAccounts = canCall(endpoints.service.mailCreate);
  const writeAliases = canCall(endpoints.service.aliasCreate);
  // Opening webmail signs in with the form the server sends (a read): through the one hook for its failure toast.
  const webmail = useFormMutation({ send: (a: MailAccount) => webmailLogin(id, a.id), onDone: submitAutoForm });

  return (
    <Stack>
      <Title order={2} size="h4">
        {t('hosting.mail')}
      </Title>
      <DataList
        label={t('hosting.mail')}
        rows={rows}
        rowKey={(r) => r.key}
        filterText={(r) => r.name}
        toolbar={
          <Group gap="xs">
            <SegmentedControl
              size="xs"
              value={filter}
              onChange={(v) => setFilter(v as Filter)}
              data={[
                { value: 'all', label: t('hosting.all') },
                { value: 'alias', label: t('hosting.aliases') },
                { value: 'account', label: t('hosting.accounts') },
              ]}
              aria-label={t('hosting.type_filter')}
            />
            <Button variant="default" size="xs" onClick={() => setOpen({ kind: 'config' })} disabled={!accounts.data}>
              {t('hosting.mail_config')}
            </Button>
            {canCall(endpoints.service.dkimList) && (
              <Button variant="default" size="xs" onClick={() => setOpen({ kind: 'dkim' })}>
                {t('hosting.dkim')}
              </Button>
            )}
            {(writeAccounts || writeAliases) && (
              <Menu withinPortal>
                <Menu.Target>
                  <Button size="xs" data-testid="mail-create">
                    {t('hosting.create')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {writeAccounts && <Menu.Item onClick={() => setOpen({ kind: 'account' })}>{t('hosting.account_create')}</Menu.Item>}
                  {writeAliases && <Menu.Item onClick={() => setOpen({ kind: 'alias' })}>{t('hosting.alias_create')}</Menu.Item>}
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        }
        columns={[t('hosting.name'), t('hosting.type'), t('hosting.details'), '']}
        renderRow={(r) =>
          r.type === 'account' ? (
            <Table.Tr>
              <NameCell name={r.name} row={r.account} itemId={id} listKey={accountsKey(id)} writable={writeAccounts} />
              <Table.Td>
                <Badge variant="light">{t('hosting.account')}</Badge>
              </Table.Td>
              <Table.Td>
                <Group gap="xs">
                  {canCall(endpoints.service.mailLogin) && (
                    <Button size="xs" variant="light" onClick={() => webmail.mutate(r.account)}>
                      {t('hosting.webmail')}
                    </Button>
                  )}
                  <Text size="xs" c="dimmed" data-testid="mail-usage">
                    {t('hosting.mail_usage', { used: formatBytes(r.account.usage), quota: formatBytes(r.account.quota) })}
                  </Text>
                  {r.account.autoresponder && (
                    <Badge variant="light" color="teal" title={r.account.autoresponder.subject} data-testid="mail-autoreply">
                      {t('hosting.autoreply_on')}
                    </Badge>
                  )}
                  {r.account.forward && (
                    <Text size="xs" className="break-anywhere" data-testid="mail-forward">
                      {t(r.account.forward.keepCopy ? 'hosting.forward_copy_to' : 'hosting.forward_only_to', {
                        targets: r.account.forward.targets.join(', '),
                      })}
                    </Text>
                  )}
                </Group>
              </Table.Td>
              <RowMenu
                name={r.name}
                actions={[
                  {
                    label: t('hosting.show_password'),
                    onClick: () => setOpen({ kind: 'show', account: r.account }),
                    hidden: !canCall(endpoints.service.mailPassword),
                  },
                  {
                    label: t('hosting.change_password'),
                    onClick: () => setOpen({ kind: 'password', account: r.account }),
                    hidden: !writeAccounts,
                  },
                  {
                    label: t('hosting.delivery'),
                    onClick: () => setOpen({ kind: 'delivery', account: r.account }),
                    hidden: !canCall(endpoints.service.mailDelivery),
                  },
                  {
                    label: t('hosting.delete'),
                    danger: true,
                    onClick: () => setOpen({ kind: 'delete-account', account: r.account }),
                    hidden: !writeAccounts || !r.account.eliminable,
                  },
                ]}
              />
            </Table.Tr>
          ) : (
            <Table.Tr>
              <NameCell name={r.name} row={r.alias} itemId={id} listKey={aliasesKey(id)} writable={writeAliases} />
              <Table.Td>
                <Badge variant="light" color="grape">
                  {t('hosting.alias')}
                </Badge>
              </Table.Td>
              <Table.Td className="break-anywhere">{r.alias.name}</Table.Td>
              <RowMenu
                name={r.name}
                actions={[
                  { label: t('hosting.edit'), onClick: () => setOpen({ kind: 'edit-alias', alias: r.alias }), hidden: !writeAliases },
                  {
                    label: t('hosting.delete'),
                    danger: true,
                    onClick: () => setOpen({ kind: 'delete-alias', alias: r.alias }),
                    hidden: !writeAliases || !r.alias.eliminable,
                  },
                ]}
              />
            </Table.Tr>
          )
        }
      />
      {canCall(endpoints.service.mailHealth) && <MailHealthCard id={id} />}
      <DkimDialog id={id} opened={open?.kind === 'dkim'} onClose={close} />
      <MailConfigDialog config={accounts.data?.config} opened={open?.kind === 'config'} onClose={close} />
      <AccountDialog id={id} reference={reference} opened={open?.kind === 'account'} onClose={close} />
      <DeliveryDialog id={id} account={open?.kind === 'delivery' ? account : null} opened={open?.kind === 'delivery'} onClose={close} />
      <AliasDialog
        id={id}
        reference={reference}
        alias={open?.kind === 'edit-alias' ? alias : null}
        opened={open?.kind === 'alias' || open?.kind === 'edit-alias'}
        onClose={close}
      />
      <ShowPasswordDialog
        title={t('hosting.password_of', { name: account?.user ?? '' })}
        opened={open?.kind === 'show'}
        onClose={close}
        queryKey={['mail', id, 'correo', account?.id, 'password']}
        load={() => accountPassword(id, account!.id)}
      />
      <ChangePasswordDialog
        itemId={id}
        call={endpoints.service.mailChangePassword}
        title={t('hosting.change_password_of', { name: account?.user ?? '' })}
        opened={open?.kind === 'password'}
        onClose={close}
        submit={(password) => changeAccountPassword(id, account!.id, password)}
      />
      <ConfirmDialog
        opened={open?.kind === 'delete-account' || open?.kind === 'delete-alias'}
        danger
        title={t('hosting.delete')}
        message={t('hosting.delete_confirm', { name: account?.user ?? (alias ? `${alias.alias}@${alias.referencePunycode}` : '') })}
        confirmLabel={t('hosting.delete')}
        loading={removeAccount.isPending || removeAlias.isPending}
        onConfirm={() => (account ? removeAccount.mutate() : alias && removeAlias.mutate())}
        onClose={close}
      />
    </Stack>
  );
}
