import { Box, Button, Flex, Icon, IconButton, Image, Menu, Portal, Spacer, Text } from '@chakra-ui/react';
import { CircleUserRound, Menu as MenuIcon } from 'lucide-react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { AccountSetupButton, useAccountSetup } from '../../features/account-setup/components/account-setup';
import { MerchantSwitcher } from '../../features/merchants/components/merchant-switcher';
import { useAuth, useProfile } from '../../lib/auth/auth-context';
import { clearImpersonation, getImpersonation } from '../../lib/impersonation';
import { useTenant } from '../../lib/tenant-config';
import { lookFor } from '../../lib/theme';

/** Spec 2.4: logo, page title, full name, Profile, Sign Out, 'Back as {name}'. */
export function TopBar({
  title,
  onMenu,
  showMenuButton,
}: {
  title?: string;
  onMenu: () => void;
  showMenuButton: boolean;
}) {
  const tenant = useTenant();
  const profile = useProfile();
  const { signOut, refreshProfile } = useAuth();
  const navigate = useNavigate();
  const look = lookFor(tenant, profile.theme_variant);
  const impersonating = !!getImpersonation() || !!profile.impersonated_by;
  const by = profile.impersonated_by;
  const backName = by ? `${by.fname} ${by.lname}`.trim() : 'Admin';
  const showProfile = !profile.is_federated && profile.features.some((f) => f.alias === 'profile');

  const backAs = async () => {
    clearImpersonation();
    await refreshProfile();
    navigate('/users');
  };

  const fullName = `${profile.fname} ${profile.lname}`.trim();
  const accountSetup = useAccountSetup();
  /** The wide bar's text buttons from this breakpoint on; below it they are items of the account menu. */
  const WIDE = 'lg';

  return (
    <Flex
      as="header"
      // Stays in view while the page scrolls; the sidebar sticks right below it.
      position="sticky"
      top="0"
      zIndex="docked"
      bg="topbar.bg"
      color="topbar.fg"
      // One row of 4rem; on a phone the merchant switcher takes a second row of its own.
      minH="16"
      py={{ base: 2, md: 0 }}
      px={{ base: 2, md: 4 }}
      align="center"
      wrap={{ base: 'wrap', md: 'nowrap' }}
      columnGap={{ base: 2, md: 3 }}
      rowGap="2"
      borderBottomWidth="1px"
      boxShadow="sm"
      data-testid="top-bar"
    >
      {showMenuButton && (
        <IconButton aria-label="Open menu" variant="ghost" onClick={onMenu} color="topbar.fg" flexShrink={0}>
          <Icon>
            <MenuIcon />
          </Icon>
        </IconButton>
      )}
      <Box asChild flexShrink={0} minW="0">
        <RouterLink to="/" aria-label={tenant.site_name}>
          {look.logo_url ? (
            <Image src={look.logo_url} alt={tenant.site_name} h={{ base: 8, sm: 10 }} data-testid="logo" />
          ) : (
            <Text fontWeight="bold">{tenant.site_name}</Text>
          )}
        </RouterLink>
      </Box>
      {/* The page's own header holds its h1; here the title is a label of the bar. */}
      {title && (
        <Text
          fontSize="lg"
          fontWeight="semibold"
          display={{ base: 'none', xl: 'block' }}
          ml="4"
          minW="0"
          truncate
          data-testid="top-bar-title"
        >
          {title}
        </Text>
      )}
      <Spacer />
      <Box order={{ base: 1, md: 0 }} w={{ base: 'full', md: '64' }} flexShrink={0}>
        <MerchantSwitcher />
      </Box>
      <Text
        fontWeight="medium"
        display={{ base: 'none', xl: 'block' }}
        maxW="48"
        truncate
        data-testid="user-name"
      >
        {fullName}
      </Text>
      {impersonating && (
        <Button
          size="sm"
          colorPalette="orange"
          display={{ base: 'none', [WIDE]: 'inline-flex' }}
          onClick={() => void backAs()}
          data-testid="back-as"
        >
          {`Back as ${backName}`}
        </Button>
      )}
      <AccountSetupButton onOpen={accountSetup.open} display={{ base: 'none', [WIDE]: 'inline-flex' }} />
      {showProfile && (
        <Button
          size="sm"
          variant="ghost"
          color="topbar.fg"
          display={{ base: 'none', [WIDE]: 'inline-flex' }}
          asChild
          data-testid="profile-link"
        >
          <RouterLink to="/settings">Profile</RouterLink>
        </Button>
      )}
      {!profile.is_federated && (
        <Button
          size="sm"
          variant="outline"
          // The top bar's own colours: brand-coloured text vanishes on a brand-coloured bar.
          color="topbar.fg"
          borderColor="topbar.fg"
          _hover={{ bg: 'transparent', opacity: 0.8 }}
          display={{ base: 'none', [WIDE]: 'inline-flex' }}
          onClick={() => void signOut()}
          data-testid="sign-out"
        >
          Sign Out
        </Button>
      )}
      {/* Below the wide bar: the same actions in one account menu. */}
      <Box display={{ base: 'block', [WIDE]: 'none' }} flexShrink={0}>
        <Menu.Root>
          <Menu.Trigger asChild>
            <IconButton
              aria-label="Account menu"
              variant="ghost"
              color="topbar.fg"
              // Impersonating: the menu holds 'Back as', and says so by its ring.
              outline={impersonating ? '2px solid' : undefined}
              outlineColor={impersonating ? 'orange.500' : undefined}
              data-testid="account-menu"
            >
              <Icon>
                <CircleUserRound />
              </Icon>
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="48" data-testid="account-menu-content">
                <Menu.ItemGroup>
                  <Menu.ItemGroupLabel>{fullName}</Menu.ItemGroupLabel>
                  {impersonating && (
                    <Menu.Item value="back-as" color="orange.fg" onSelect={() => void backAs()}>
                      {`Back as ${backName}`}
                    </Menu.Item>
                  )}
                  <Menu.Item value="account-setup" onSelect={accountSetup.open}>
                    Account Setup
                  </Menu.Item>
                  {showProfile && (
                    <Menu.Item value="profile" onSelect={() => navigate('/settings')}>
                      Profile
                    </Menu.Item>
                  )}
                  {!profile.is_federated && (
                    <Menu.Item value="sign-out" onSelect={() => void signOut()}>
                      Sign Out
                    </Menu.Item>
                  )}
                </Menu.ItemGroup>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      </Box>
      {accountSetup.dialog}
    </Flex>
  );
}
