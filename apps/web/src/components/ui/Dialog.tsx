import { LIMITS } from '@atalaya/contract';
import { Modal, type ModalProps } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { createDialogStack, createEscapeGate } from '../../lib/escape.ts';
import { useTranslation } from '../../lib/i18n.ts';

const stack = createDialogStack();
const gate = createEscapeGate(LIMITS.escapeWindowMs);
let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  // Capture phase, so no inner widget (a select, a menu) sees the Escape that closes the dialog.
  window.addEventListener(
    'keydown',
    (event) => {
      if (event.key !== 'Escape' || stack.size === 0) return;
      if (gate.press(event.timeStamp)) stack.closeTop();
    },
    true,
  );
}

/**
 * Every dialog of the panel: a Mantine Modal whose Escape closes only the topmost one, and only
 * on a second press within 200 ms (docs/behaviour/shell-session-domains.md#states).
 */
export function Dialog({ opened, onClose, ...props }: ModalProps) {
  const { t } = useTranslation();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!opened) return;
    listen();
    const id = stack.push(() => close.current());
    return () => stack.remove(id);
  }, [opened]);
  // The header's × has no text: screen readers need its name.
  return <Modal opened={opened} onClose={onClose} closeOnEscape={false} closeButtonProps={{ 'aria-label': t('shell.close') }} {...props} />;
}
