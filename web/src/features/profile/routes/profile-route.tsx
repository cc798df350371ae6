import { Box, Heading, Stack } from '@chakra-ui/react';
import { LoginHistory } from '../components/login-history';
import { Notifications } from '../components/notifications';
import { TimeZoneSetting } from '../components/time-zone-setting';
import { UserSettings } from '../components/user-settings';

/** Profile Settings (/settings, /settings/profile, /settings-new): three sections (spec 3 §2) and the time zone of deadline reminders. */
export default function ProfileRoute() {
  return (
    <Box p={{ base: 3, md: 6 }} data-testid="profile-settings">
      <Heading size="xl" mb="4">
        Profile Settings
      </Heading>
      <Stack gap="5">
        <UserSettings />
        <Notifications />
        <TimeZoneSetting />
        <LoginHistory />
      </Stack>
    </Box>
  );
}
