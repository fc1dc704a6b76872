import { CONTACT_TYPES, type Contact, type ContactType, type DomainAnswer } from '@atalaya/contract';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { allowsCall } from '../../../lib/permissions.ts';
import { contactsCall } from '../api/domain.ts';
import { ContactDialog } from './ContactDialog.tsx';

function ContactLines({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text fw={600}>{contact.name}</Text>
      {contact.type === 'organization' && (
        <Text size="sm">
          {contact.firstName} {contact.lastName}
        </Text>
      )}
      <Text size="sm">
        {t(contact.type === 'organization' ? 'domain.vat' : 'domain.nif')}: {contact.vat}
      </Text>
      <Text size="sm" className="break-anywhere">
        {contact.email}
      </Text>
      <Text size="sm">{contact.phone}</Text>
      <Text size="sm">{contact.address}</Text>
      <Text size="sm">
        {contact.postalCode} {contact.city} ({contact.state}), {contact.country}
      </Text>
    </Stack>
  );
}

/** The four contacts, each shown only when its area is visible and editable with write. */
export function ContactsCard({ data }: { data: DomainAnswer }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<ContactType | null>(null);
  const visible = CONTACT_TYPES.filter((type) => data[type]);
  if (visible.length === 0) return null;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('domain.contacts')}
      </Title>
      {/* Four columns only where a card is wide enough for its title and Edit side by side
          (at lg, "Administrativo" pushed Edit onto a line of its own). */}
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 4 }}>
        {visible.map((type) => (
          <Card key={type} withBorder padding="sm" data-testid={`contact-${type}`}>
            <Group justify="space-between" mb="xs" wrap="nowrap">
              <Text fw={700}>{t(`domain.contact_${type}`)}</Text>
              {allowsCall(data.domain.permissions, contactsCall(type)) && (
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => setEditing(type)}
                  aria-label={t('domain.contact_edit', { type: t(`domain.contact_${type}`) })}
                >
                  {t('domain.edit')}
                </Button>
              )}
            </Group>
            <ContactLines contact={data[type]!} />
          </Card>
        ))}
      </SimpleGrid>
      <ContactDialog data={data} type={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
