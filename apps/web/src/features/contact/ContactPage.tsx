import { Button, Group, Paper, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { bindText } from '../../components/ui/fieldErrors.ts';
import { PrivacyCheckbox } from '../../components/ui/PrivacyCheckbox.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useUser } from '../../lib/session.ts';
import { useSiteConfig } from '../../lib/siteConfig.ts';
import { sendContactMail } from './api/sendContactMail.ts';

const EMPTY = { name: '', phone: '', email: '', subject: '', contents: '' };
const FIELDS = ['name', 'phone', 'email', 'subject', 'contents'] as const;
type Field = (typeof FIELDS)[number];

/**
 * Contact page (docs/behaviour/shell-session-domains.md#contact-page): send is enabled only once privacy is ticked; a sent form is
 * cleared. The fuller variant (`company.contactForm: full`) also shows the domain and username and
 * asks the name and phone, the message being the question.
 */
export default function ContactPage() {
  const { t } = useTranslation();
  const full = useSiteConfig()?.contactForm === 'full';
  const user = useUser();
  const [fields, setFields] = useState(EMPTY);
  const [privacy, setPrivacy] = useState(false);
  const send = useFormMutation({
    send: sendContactMail,
    inputs: FIELDS,
    onDone: () => {
      setFields(EMPTY);
      setPrivacy(false);
      send.reset();
    },
  });
  usePageTitle(t('shell.contact'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { name, phone, ...always } = fields;
    send.mutate({ ...always, ...(full ? { name, phone } : {}), privacy });
  };
  const text = bindText(fields, (key, value) => setFields({ ...fields, [key]: value }), send.error);
  const input = (name: Field) => ({
    ...text(name),
    label: t(name === 'contents' && full ? 'shell.contact_question' : `shell.contact_${name}`),
    required: true,
  });

  return (
    <Stack maw={640}>
      <Title order={1} size="h3">
        {t('shell.contact')}
      </Title>
      <Paper withBorder p="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {full && (
              <>
                <TextInput label={t('shell.forgot_domain')} value={user?.domainName ?? ''} readOnly />
                <TextInput label={t('shell.forgot_user')} value={user?.user ?? ''} readOnly />
                <TextInput {...input('name')} autoComplete="name" />
                <TextInput {...input('phone')} type="tel" autoComplete="tel" />
              </>
            )}
            <TextInput {...input('email')} type="email" autoComplete="email" />
            <TextInput {...input('subject')} />
            <Textarea {...input('contents')} />
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
