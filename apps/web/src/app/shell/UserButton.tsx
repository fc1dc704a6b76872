import { Button, Text } from '@mantine/core';
import { useRef, useState } from 'react';

type UserMenuCode = typeof import('./UserMenu.tsx');

let menuCode: Promise<UserMenuCode> | undefined;
let loaded: UserMenuCode['default'] | undefined;
const loadMenu = () => {
  menuCode ??= import('./UserMenu.tsx').then((code) => {
    loaded = code.default;
    return code;
  });
  return menuCode;
};

export interface UserButtonProps {
  /** The button's accessible name: user name and "User menu". */
  label: string;
  name: string;
}

/**
 * The user menu's button, drawn at once; the menu itself (UserMenu.tsx) loads on the first
 * pointer, touch or focus on it and then takes its place with the same look. A click before then
 * opens the menu as soon as it arrives, and the focus moves over. The swap happens once the code
 * is there (no Suspense: its fallback would be a new button and the focus would be lost on the
 * way). Not fetched in idle time: Lighthouse counts that work, timer or not, as blocking right
 * after the first paint (decision 011).
 */
export function UserButton(props: UserButtonProps) {
  const [Menu, setMenu] = useState(() => loaded);
  const [clicked, setClicked] = useState(false);
  // Refs, not state: the stand-in leaves the page without a blur when the menu replaces it, and a
  // press (pointer or key) must not see its button replaced before its click, which would be lost:
  // the swap waits for the click, a blur or a cancelled pointer (a touch lifts with pointerleave
  // and a Space key with keyup, both before the click).
  const focused = useRef(false);
  const pressing = useRef(false);
  const arrived = useRef<typeof loaded>(undefined);
  const swap = () => {
    const code = arrived.current;
    if (code && !pressing.current) setMenu(() => code);
  };
  const want = () =>
    void loadMenu().then((code) => {
      arrived.current = code.default;
      swap();
    });
  const press = () => {
    pressing.current = true;
    want();
  };
  const release = () => {
    pressing.current = false;
    swap();
  };
  if (Menu) return <Menu button={props} opened={clicked} focused={focused} />;
  return (
    <Button
      variant="light"
      aria-label={props.label}
      aria-haspopup="menu"
      aria-expanded={false}
      maw={160}
      onPointerEnter={want}
      onPointerDown={press}
      onKeyDown={press}
      onPointerCancel={release}
      onFocus={() => {
        focused.current = true;
        want();
      }}
      onBlur={() => {
        focused.current = false;
        release();
      }}
      onClick={() => {
        setClicked(true);
        release();
        want();
      }}
    >
      <Text truncate size="sm">
        {props.name}
      </Text>
    </Button>
  );
}
