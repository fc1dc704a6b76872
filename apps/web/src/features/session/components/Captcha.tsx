import type {} from 'altcha/types/react';
import { API_BASE, ENVELOPE_HEADER } from '@atalaya/contract';
import { Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The widget and its es/ca texts load after the form paints: they are not needed to read it. */
const loadWidget = () => Promise.all([import('altcha'), import('altcha/i18n/es-es'), import('altcha/i18n/ca')]);

/** The challenge comes wrapped in the API envelope; the widget wants the bare challenge. */
async function unwrappingFetch(input: RequestInfo | URL, init?: RequestInit) {
  const response = await fetch(input, init);
  if (!response.headers.get(ENVELOPE_HEADER)) return response;
  const envelope = (await response.json()) as { data: unknown };
  return new Response(JSON.stringify(envelope.data), { status: response.status, headers: { 'content-type': 'application/json' } });
}

interface StateDetail {
  state: string;
  payload?: string;
}

/**
 * The ALTCHA proof of work (self-hosted challenge from GET /captcha/); `onSolved` gets the payload
 * that travels as recaptcha_response, or '' when it expires. Remount (change `key`) for a fresh one.
 */
export function Captcha({ onSolved, error }: { onSolved: (payload: string) => void; error?: string }) {
  const { i18n } = useTranslation();
  const ref = useRef<HTMLElement & { configure?: (c: object) => Promise<void>; verify?: () => Promise<unknown> }>(null);
  const [ready, setReady] = useState(false);
  const solved = useRef(onSolved);
  solved.current = onSolved;

  useEffect(() => {
    let live = true;
    loadWidget().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const widget = ref.current;
    if (!ready || !widget) return;
    // Solved straight away (the user is still typing), once the widget knows how to fetch.
    Promise.resolve(widget.configure?.({ fetch: unwrappingFetch, challenge: `${API_BASE}captcha/` }))
      .then(() => widget.verify?.())
      .catch(() => undefined);
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateDetail>).detail;
      solved.current(state === 'verified' && payload ? payload : '');
    };
    widget.addEventListener('statechange', onState);
    return () => widget.removeEventListener('statechange', onState);
  }, [ready]);

  return (
    <div>
      {ready ? (
        <altcha-widget ref={ref} type="checkbox" language={i18n.language} name="recaptcha_response" />
      ) : (
        <div style={{ minHeight: 66 }} />
      )}
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
