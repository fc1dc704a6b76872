import { generatePassword } from '@atalaya/contract';
import { useEffect, useState } from 'react';

/** A form's password field: generated anew each time the form opens, so no password is offered twice. */
export function useFreshPassword(opened: boolean) {
  const [password, setPassword] = useState(generatePassword);
  useEffect(() => {
    if (opened) setPassword(generatePassword());
  }, [opened]);
  return [password, setPassword] as const;
}
