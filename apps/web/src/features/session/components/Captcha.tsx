import { Text } from '@mantine/core';
import type {} from 'altcha/types/react';
import { useEffect, useRef, useState } from 'react';
import { call, urlOf } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';

/**
 * The widget and its es/ca texts: fetched once, on the first use of a form that needs them.
 * Where the challenge comes from is set as the widgets' defaults, which a widget reads when it is
 * created: its methods (`configure`, `verify`) only exist a microtask after it enters the page, so
 * calling them from an effect raced with that, and a lost race left a widget that never solved or
 * fetched `/login/` itself as its challenge ("verification failed", decision 011).
 */
let widgetCode: Promise<unknown> | undefined;
const loadWidget = () => {
  widgetCode ??= Promise.all([import('altcha'), import('altcha/i18n/es-es'), import('altcha/i18n/ca')]).then(() =>
    globalThis.$altcha.defaults.set({ fetch: challengeFetch, challenge: urlOf(endpoints.account.captcha, {}) }),
  );
  return widgetCode;
};

/** What tells that someone is about to fill the form in (autofill fires `input`). */
const INTENT = ['focusin', 'pointerdown', 'pointerover', 'touchstart', 'keydown', 'input'] as const;

/**
 * Resolves on the first sign of use of the form around `element` (docs/design.md#budgets: the
 * widget is a large share of what the sign-in page may load before the user types). At once when the
 * widget is already loaded, focus is already inside or there is no form.
 */
function whenUsed(element: HTMLElement, signal: AbortSignal): Promise<void> {
  const form = element.closest('form');
  if (widgetCode || !form || form.contains(document.activeElement)) return Promise.resolve();
  return new Promise((resolve) => {
    for (const type of INTENT) form.addEventListener(type, () => resolve(), { once: true, passive: true, signal });
  });
}

/**
 * The widget's only request, its challenge, made by the API client: the envelope unwrapped (the
 * widget wants the bare challenge) and a refusal thrown, which the widget shows as a failed
 * verification. Made as "already replayed", like every call of the sign-in page.
 */
async function challengeFetch(): Promise<Response> {
  const { data } = await call(endpoints.account.captcha, {}, undefined, true);
  return new Response(JSON.stringify(data), { headers: { 'content-type': 'application/json' } });
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
  const ref = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const solved = useRef(onSolved);
  solved.current = onSolved;

  useEffect(() => {
    const stop = new AbortController();
    if (!box.current) return;
    whenUsed(box.current, stop.signal)
      .then(loadWidget)
      .then(() => stop.signal.aborted || setReady(true));
    return () => stop.abort();
  }, []);

  useEffect(() => {
    const widget = ref.current;
    if (!ready || !widget) return;
    // No event is missed: a widget reports `verified` after 500 ms at the earliest (its minDuration).
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateDetail>).detail;
      solved.current(state === 'verified' && payload ? payload : '');
    };
    widget.addEventListener('statechange', onState);
    return () => widget.removeEventListener('statechange', onState);
  }, [ready]);

  return (
    <div ref={box}>
      {ready ? (
        // `onload`: solved straight away (the user is still typing), by the widget itself once created.
        <altcha-widget ref={ref} type="checkbox" auto="onload" language={i18n.language} name="recaptcha_response" />
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
