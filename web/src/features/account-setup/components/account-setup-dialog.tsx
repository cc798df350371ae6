import { Box, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { ACCOUNT_SETUP_DELAY_MS, ACCOUNT_SETUP_MESSAGES } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { useAccountSetupLinks } from '../api/get-account-setup-links';

/**
 * The Account Setup modal (spec 3 §2): its links are asked for one second
 * after it opens (§9), a spinner until they arrive, the catalogue's message
 * when they cannot be fetched (§8). Choosing a link closes the modal.
 */
export function AccountSetupDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const [due, setDue] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setDue(true), ACCOUNT_SETUP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const links = useAccountSetupLinks(userId, due);

  let body;
  if (links.isError) {
    body = <Notice status="error" title={ACCOUNT_SETUP_MESSAGES.loadFailed} testId="account-setup-error" />;
  } else if (!due || !links.data) {
    body = (
      <Flex justify="center" py="6" data-testid="account-setup-loading">
        <Spinner size="lg" color="brand.solid" />
      </Flex>
    );
  } else if (!links.data.data.length) {
    body = <Text color="fg.muted">Your account needs no setup steps.</Text>;
  } else {
    body = (
      <Stack gap="3" as="ul" listStyleType="none" data-testid="account-setup-links">
        {links.data.data.map((l) => (
          <Box as="li" key={l.key}>
            <RouterLink to={l.url} onClick={onClose} data-key={l.key}>
              <Box borderWidth="1px" borderRadius="md" p="3" _hover={{ bg: 'bg.muted' }}>
                <Text fontWeight="semibold" color="brand.fg">
                  {l.label}
                </Text>
                <Text fontSize="sm" color="fg.muted">
                  {l.description}
                </Text>
              </Box>
            </RouterLink>
          </Box>
        ))}
      </Stack>
    );
  }

  return (
    <DialogFrame title="Account Setup" testId="account-setup-dialog" onClose={onClose}>
      <Text mb="4" fontSize="sm">
        Finish setting up your account: each step opens the page where it is done.
      </Text>
      {body}
    </DialogFrame>
  );
}
