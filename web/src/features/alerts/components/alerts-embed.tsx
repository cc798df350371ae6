import { Box, Flex, Spinner, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { Notice } from '../../../components/notice';
import { useProfile } from '../../../lib/auth/auth-context';
import { queryErrorMessage } from '../../../lib/errors';
import { useTenant } from '../../../lib/tenant-config';
import { getExpressResolveQueryOptions } from '../api/get-express-resolve';
import { ALERT_MESSAGES } from '../lib/alert-messages';
import { embedUrl } from '../lib/embed-url';

/** The embedded alerts form (alerts iframe feature): nothing renders until express-resolve data and the user are loaded. */
export function AlertsEmbed() {
  const profile = useProfile();
  const tenant = useTenant();
  const merchantId = profile.merchant.id;
  const ers = useQuery(getExpressResolveQueryOptions(merchantId));
  if (ers.isError)
    return (
      <Box p="6">
        <Notice status="error">{queryErrorMessage(ers.error)}</Notice>
      </Box>
    );
  if (!ers.data || !tenant.alerts_embed_host)
    return (
      <Flex p="10" justify="center" gap="3" align="center">
        <Spinner />
        <Text>{ALERT_MESSAGES.loadingAlerts}</Text>
      </Flex>
    );
  const src = embedUrl({
    host: tenant.alerts_embed_host,
    currentHostname: window.location.hostname,
    merchantId,
    showAlertsBanner: profile.merchant.show_alerts_banner,
    clientId: ers.data.ers_client_id,
    verifyToken: ers.data.token,
    theme: tenant.id,
    username: profile.username,
    email: profile.email,
    firstName: profile.fname,
    lastName: profile.lname,
    identity: ers.data.identity,
    sessionToken: ers.data.session_token,
    redirectHost: window.location.host,
  });
  return (
    <Box p={{ base: 2, md: 4 }} h="calc(100vh - 120px)">
      <iframe title="Alerts" src={src} style={{ width: '100%', height: '100%', border: 0 }} />
    </Box>
  );
}
