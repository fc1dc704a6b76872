import { Button, FileButton, Group, Text, Textarea } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  description?: string;
  name: string;
}

/** A PEM text box that can also load a file; always plain text, never rendered as HTML. */
export function PemField({ label, value, onChange, error, description, name }: Props) {
  const { t } = useTranslation();
  return (
    <div>
      <Group justify="space-between" align="end" mb={4}>
        <Text component="label" htmlFor={`pem-${name}`} size="sm" fw={500}>
          {label}
        </Text>
        <FileButton accept=".pem,.crt,.key,.cer,text/plain" onChange={(file) => file?.text().then(onChange)}>
          {(props) => (
            <Button {...props} size="compact-xs" variant="subtle">
              {t('sites.load_file')}
            </Button>
          )}
        </FileButton>
      </Group>
      <Textarea
        id={`pem-${name}`}
        name={name}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
        description={description}
        autosize
        minRows={3}
        maxRows={8}
        spellCheck={false}
        styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
        placeholder="-----BEGIN …-----"
      />
    </div>
  );
}
