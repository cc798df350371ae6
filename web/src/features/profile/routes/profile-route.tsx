import { Stack } from '@chakra-ui/react';
import { Page, PageHeader } from '../../../components/page-header';
import { LoginHistory } from '../components/login-history';
import { Notifications } from '../components/notifications';
import { TimeZoneSetting } from '../components/time-zone-setting';
import { UserSettings } from '../components/user-settings';

/** Profile Settings (/settings, /settings/profile, /settings-new): three sections (spec 3 §2) and the time zone of deadline reminders. */
export default function ProfileRoute() {
  return (
    <Page data-testid="profile-settings">
      <PageHeader title="Profile Settings" />
      <Stack gap="5">
        <UserSettings />
        <Notifications />
        <TimeZoneSetting />
        <LoginHistory />
      </Stack>
    </Page>
  );
}
