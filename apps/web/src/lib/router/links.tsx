import { type AnchorHTMLAttributes, type MouseEvent, type Ref, useContext, useEffect } from 'react';
import { RouteContext } from './context.ts';
import { go } from './history.ts';
import { type NavigateOptions, useLocation } from './hooks.ts';
import { resolvePath } from './match.ts';

/** Where a route's screen shows the screen of the route below it. */
export function Outlet() {
  return useContext(RouteContext).outlet;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & NavigateOptions & { to: string; ref?: Ref<HTMLAnchorElement> };

/** A click the browser should handle itself: a new tab or window, a download, another target. */
const leavesThePanel = (event: MouseEvent<HTMLAnchorElement>) =>
  event.defaultPrevented ||
  event.button !== 0 ||
  event.metaKey ||
  event.ctrlKey ||
  event.shiftKey ||
  event.altKey ||
  (event.currentTarget.target !== '' && event.currentTarget.target !== '_self');

/** A real link (its address opens in a new tab too); a plain click navigates without reloading. */
export function Link({ to, replace, onClick, ...anchor }: LinkProps) {
  const href = resolvePath(to, useLocation().pathname);
  return (
    <a
      {...anchor}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (leavesThePanel(event)) return;
        event.preventDefault();
        go(href, { replace });
      }}
    />
  );
}

/** A link that says when it leads to the current page (`aria-current`, class `active`); `end`: only that exact page, not the pages below it. */
export function NavLink({ end, className, ...link }: LinkProps & { end?: boolean }) {
  const { pathname } = useLocation();
  const target = new URL(resolvePath(link.to, pathname), 'http://panel').pathname;
  const active = end ? pathname === target : pathname.startsWith(target);
  return (
    <Link
      {...link}
      className={active ? [className, 'active'].filter(Boolean).join(' ') : className}
      aria-current={active ? 'page' : undefined}
    />
  );
}

/** Goes to `to` once rendered: a redirect (with `replace`, the page it leaves drops out of the history). */
export function Navigate({ to, replace = false }: { to: string; replace?: boolean }) {
  const href = resolvePath(to, useLocation().pathname);
  useEffect(() => go(href, { replace }), [href, replace]);
  return null;
}
