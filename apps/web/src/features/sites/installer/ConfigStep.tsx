import type { InstallInput } from '@atalaya/contract';
import { Checkbox, PasswordInput, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import type { WizardState } from './state.ts';

interface Props {
  state: WizardState;
  setValue: (name: string, value: string) => void;
  setChecked: (name: string, checked: boolean) => void;
  error: (input: string) => string | undefined;
}

/** Step 3: the application's config groups, each input as its type says. */
export function ConfigStep({ state, setValue, setChecked, error }: Props) {
  const field = (input: InstallInput) => {
    const common = { label: input.label, name: `config_${input.name}`, required: input.isRequired, error: error(`config_${input.name}`) };
    const value = state.values[input.name] ?? '';
    switch (input.type) {
      case 'hidden':
        return null;
      case 'checkbox':
        return (
          <Checkbox
            key={input.name}
            {...common}
            checked={state.checked[input.name] ?? false}
            onChange={(e) => setChecked(input.name, e.currentTarget.checked)}
          />
        );
      case 'select':
        return (
          <Select
            key={input.name}
            {...common}
            data={input.options}
            value={value}
            onChange={(v) => setValue(input.name, v ?? '')}
            allowDeselect={!input.isRequired}
          />
        );
      case 'textarea':
        return <Textarea key={input.name} {...common} value={value} onChange={(e) => setValue(input.name, e.currentTarget.value)} />;
      default:
        return input.password ? (
          <PasswordInput
            key={input.name}
            {...common}
            autoComplete="new-password"
            value={value}
            onChange={(e) => setValue(input.name, e.currentTarget.value)}
          />
        ) : (
          <TextInput key={input.name} {...common} value={value} onChange={(e) => setValue(input.name, e.currentTarget.value)} />
        );
    }
  };
  return (
    <Stack gap="md">
      {state.app?.installConfig.map((group) => (
        <Stack key={group.title} gap="xs">
          <Title order={3} size="h5">
            {group.title}
          </Title>
          {group.inputs.map(field)}
        </Stack>
      ))}
    </Stack>
  );
}
