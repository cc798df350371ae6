import { Box, CloseButton, Drawer, Flex, Portal, useBreakpointValue } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { matchPath, Outlet, useLocation } from 'react-router-dom';
import { Notice } from '../../components/notice';
import { MessageDialog } from '../../features/messages/components/message-dialog';
import { ProServiceBanner, proServicePage } from '../../features/messages/components/pro-service-banner';
import { useProfile } from '../../lib/auth/auth-context';
import { bodyIdFromPath } from '../../lib/page-title';
import { useTenant } from '../../lib/tenant-config';
import { ROUTES } from '../routes/catalogue';
import { IdleSessionDialog } from './idle-session-dialog';
import { buildMenu } from './menu';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

const SIDEBAR_WIDTH = '260px';

/** The signed-in frame: top bar, sidebar (persistent when wide, temporary when small), alerts banner, content. */
export function AppShell() {
  const tenant = useTenant();
  const profile = useProfile();
  const { pathname } = useLocation();
  const wide = useBreakpointValue({ base: false, lg: true }, { ssr: false }) ?? true;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const sections = useMemo(
    () =>
      buildMenu(tenant.menu_variant, profile, {
        marker: tenant.variant.menu_marker,
        alertsIframe: tenant.flags.ALERTS_IFRAME === true,
      }),
    [tenant, profile],
  );
  // API Documentation needs the width: arriving there collapses the sidebar (spec 1 §2.3), however one
  // came (menu, link, Back, reload). Adjusted while rendering when the path changes, as React advises.
  const collapsesAt = (path: string) =>
    sections.some((s) => s.items.some((i) => i.collapses && i.path === path));
  const [minimised, setMinimised] = useState(() => collapsesAt(pathname));
  const [shownPath, setShownPath] = useState(pathname);
  if (pathname !== shownPath) {
    setShownPath(pathname);
    if (collapsesAt(pathname)) setMinimised(true);
  }
  // By pattern: /case-qc-review/view-case/7 is 'QC Review Case', not untitled.
  const title = ROUTES.find((r) => matchPath(r.path, pathname))?.title;
  const bannerPage = proServicePage(pathname);

  useEffect(() => {
    document.body.id = bodyIdFromPath(pathname);
  }, [pathname]);

  const onNavigate = () => setDrawerOpen(false);
  const sidebar = (
    <Sidebar sections={sections} businessName={profile.merchant.business_name} onNavigate={onNavigate} />
  );
  const persistent = wide && !minimised;

  return (
    <Flex direction="column" minH="100vh" data-menu-variant={tenant.menu_variant}>
      <TopBar
        title={title}
        showMenuButton={!persistent}
        onMenu={() => (wide ? setMinimised(false) : setDrawerOpen(true))}
      />
      <Flex flex="1" minH="0">
        {persistent && (
          <Box w={SIDEBAR_WIDTH} flexShrink={0} bg="sidebar.bg">
            <Box position="sticky" top="16" h="calc(100vh - 4rem)">
              {sidebar}
            </Box>
          </Box>
        )}
        {!wide && (
          <Drawer.Root open={drawerOpen} onOpenChange={(e) => setDrawerOpen(e.open)} placement="start">
            <Portal>
              <Drawer.Backdrop />
              <Drawer.Positioner>
                <Drawer.Content maxW={SIDEBAR_WIDTH} bg="sidebar.bg">
                  <Drawer.CloseTrigger asChild>
                    <CloseButton size="sm" color="sidebar.fg" position="absolute" top="2" right="2" />
                  </Drawer.CloseTrigger>
                  {sidebar}
                </Drawer.Content>
              </Drawer.Positioner>
            </Portal>
          </Drawer.Root>
        )}
        <Box as="main" flex="1" minW="0" bg="app.bg">
          {profile.merchant.show_alerts_banner && (
            <Box px={{ base: 2, md: 6 }} pt="4" data-testid="alerts-banner">
              <Notice status="warning" title="Pre-chargeback alerts are active for your account.">
                New alerts need a response before they turn into chargebacks: review them on the Alerts page.
              </Notice>
            </Box>
          )}
          {bannerPage && <ProServiceBanner page={bannerPage} />}
          <Outlet />
        </Box>
      </Flex>
      <IdleSessionDialog />
      <MessageDialog />
    </Flex>
  );
}
