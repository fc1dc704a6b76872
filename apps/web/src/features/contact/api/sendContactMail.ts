import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export interface ContactMailFields {
  email: string;
  subject: string;
  contents: string;
  privacy: boolean;
}

/** POST /contactmail/: a signed-in user's message to the provider. */
export const sendContactMail = (fields: ContactMailFields) => call<unknown>('POST', 'contactmail/', { ...fields });

export const useSendContactMail = () => useMutation({ mutationFn: sendContactMail, meta: { quiet: true } });
