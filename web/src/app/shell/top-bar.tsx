import { Button, Flex, Heading, Icon, IconButton, Image, Spacer, Text } from '@chakra-ui/react';
import { Menu } from 'lucide-react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { AccountSetup } from '../../features/account-setup/components/account-setup';
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

  return (
    <Flex
      as="header"
      // Stays in view while the page scrolls; the sidebar sticks right below it.
      position="sticky"
      top="0"
      zIndex="docked"
      bg="topbar.bg"
      color="topbar.fg"
      h="16"
      px={{ base: 2, md: 4 }}
      align="center"
      gap="3"
      borderBottomWidth="1px"
      boxShadow="sm"
      data-testid="top-bar"
    >
      {showMenuButton && (
        <IconButton aria-label="Open menu" variant="ghost" onClick={onMenu} color="topbar.fg">
          <Icon>
            <Menu />
          </Icon>
        </IconButton>
      )}
      <RouterLink to="/" aria-label={tenant.site_name}>
        {look.logo_url ? (
          <Image src={look.logo_url} alt={tenant.site_name} h="10" data-testid="logo" />
        ) : (
          <Text fontWeight="bold">{tenant.site_name}</Text>
        )}
      </RouterLink>
      {title && (
        <Heading size="md" display={{ base: 'none', lg: 'block' }} ml="4">
          {title}
        </Heading>
      )}
      <Spacer />
      <MerchantSwitcher />
      <Text fontWeight="medium" display={{ base: 'none', md: 'block' }} data-testid="user-name">
        {`${profile.fname} ${profile.lname}`.trim()}
      </Text>
      {impersonating && (
        <Button size="sm" colorPalette="orange" onClick={() => void backAs()} data-testid="back-as">
          {`Back as ${backName}`}
        </Button>
      )}
      <AccountSetup />
      {showProfile && (
        <Button size="sm" variant="ghost" color="topbar.fg" asChild data-testid="profile-link">
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
          onClick={() => void signOut()}
          data-testid="sign-out"
        >
          Sign Out
        </Button>
      )}
    </Flex>
  );
}
