import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectMenuSocket } from '../../lib/menuSocket.ts';
import { useLocation } from '../../lib/router/hooks.ts';
import { Navigate, Outlet } from '../../lib/router/links.tsx';
import { useUser } from '../../lib/session.ts';
import { Breadcrumb } from './Breadcrumb.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { SideMenu } from './SideMenu.tsx';

/**
 * The signed-in frame and the navigation guard (docs/behaviour/shell-session-domains.md#navigation-guard): without a session every route but
 * login and 404 sends the visitor to the sign-in page.
 */
export default function ShellLayout() {
  const user = useUser();
  const location = useLocation();
  const client = useQueryClient();
  const [menuOpen, menu] = useDisclosure(false);

  useEffect(() => (user ? connectMenuSocket(client) : undefined), [user, client]);
  // On a phone the menu closes once a link in it is followed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => menu.close(), [location.pathname]);

  if (!user) return <Navigate to="/login/" replace />;
  // The realm requires a second factor the user has not enrolled: only Preferences until then (decision 021).
  if (user.mustEnrol && location.pathname !== '/admin/preferences/') return <Navigate to="/admin/preferences/" replace />;
  // Until then no menu either: its calls would be refused.
  const enrolling = user.mustEnrol;
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={enrolling ? undefined : { width: 250, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }}
      padding="md"
    >
      <Header menuOpen={menuOpen} onToggleMenu={menu.toggle} />
      {!enrolling && (
        <AppShell.Navbar p="sm" component="nav" aria-label="menu">
          <SideMenu />
        </AppShell.Navbar>
      )}
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        {!enrolling && <Breadcrumb />}
        <div key={location.pathname.split('/').slice(0, 3).join('/')} className="page-fade" style={{ flex: 1, minWidth: 0 }}>
          <Outlet />
        </div>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
