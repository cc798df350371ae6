import { Box, Button, Flex, Heading } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useProfile } from '../../../lib/auth/auth-context';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { MerchantDetailsPanel } from '../components/merchant-details-panel';

/** /merchant-settings: the details panel of the selected (or the user's own) merchant. */
export default function MerchantSettingsRoute() {
  const profile = useProfile();
  const selected = useSelectedMerchant();
  const id = selected?.id ?? profile.merchant.id;
  const canEdit = !profile.is_read_only && profile.features.some((f) => f.alias === 'merchant-edit');
  return (
    <Box p={{ base: 3, md: 6 }}>
      <Flex align="center" mb="4" gap="3">
        <Heading size="xl" flex="1">
          Merchant Settings
        </Heading>
        {canEdit && (
          <Button asChild colorPalette="brand" size="sm">
            <RouterLink to={`/merchant/update/${id}`}>Edit</RouterLink>
          </Button>
        )}
      </Flex>
      <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 4, md: 6 }}>
        <MerchantDetailsPanel merchantId={id} />
      </Box>
    </Box>
  );
}
