import { Button, Group, Paper, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldError, hasFieldErrors } from '../../components/ui/fieldErrors.ts';
import { PrivacyCheckbox } from '../../components/ui/PrivacyCheckbox.tsx';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useSendContactMail } from './api/sendContactMail.ts';

const EMPTY = { email: '', subject: '', contents: '' };
const FIELDS = ['email', 'subject', 'contents'] as const;

/** Contact page (spec §2): send is enabled only once privacy is ticked; a sent form is cleared. */
export default function ContactPage() {
  const { t } = useTranslation();
  const [fields, setFields] = useState(EMPTY);
  const [privacy, setPrivacy] = useState(false);
  const send = useSendContactMail();
  usePageTitle(t('shell.contact'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(
      { ...fields, privacy },
      {
        onSuccess: (result) => {
          notifySuccess(result.info);
          setFields(EMPTY);
          setPrivacy(false);
          send.reset();
        },
        onError: (error) => {
          if (!hasFieldErrors(error, FIELDS)) notifyError(error);
        },
      },
    );
  };
  const input = (name: (typeof FIELDS)[number]) => ({
    name,
    label: t(`shell.contact_${name}`),
    required: true,
    value: fields[name],
    error: fieldError(send.error, name),
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setFields({ ...fields, [name]: event.currentTarget.value }),
  });

  return (
    <Stack maw={640}>
      <Title order={1} size="h3">
        {t('shell.contact')}
      </Title>
      <Paper withBorder p="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput {...input('email')} type="email" autoComplete="email" />
            <TextInput {...input('subject')} />
            <Textarea {...input('contents')} rows={5} />
            <PrivacyCheckbox checked={privacy} onChange={setPrivacy} />
            <Group justify="flex-end">
              <Button type="submit" disabled={!privacy} loading={send.isPending}>
                {t('shell.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
