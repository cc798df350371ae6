import { Box, Button, Field, Flex, Heading, NativeSelect, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { PROFILE_TEXT } from '../api/profile-messages';
import { useSaveTimeZone, useTimeZone } from '../api/time-zone';

/** The browser's IANA zones (the server checks the name against Postgres's own list). */
const ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

/** The user's time zone: deadline reminders arrive at 08:00 there (UTC until one is chosen). */
export function TimeZoneSetting() {
  const me = useProfile();
  const saved = useTimeZone();
  const save = useSaveTimeZone();
  const [chosen, setChosen] = useState<string | null>(null);
  const current = saved.data?.time_zone ?? '';
  const value = chosen ?? current;

  const submit = () =>
    save.mutate(value || null, {
      onSuccess: () => {
        setChosen(null);
        toaster.create({ type: 'success', title: PROFILE_TEXT.timeZoneSaved });
      },
      onError: (e) => toaster.create({ type: 'error', title: e.message || PROFILE_TEXT.timeZoneFailed }),
    });

  return (
    <Box
      bg="white"
      borderRadius="lg"
      borderWidth="1px"
      p={{ base: 3, md: 5 }}
      data-testid="time-zone-setting"
    >
      <Heading size="md" mb="1">
        Time Zone
      </Heading>
      <Text color="fg.muted" fontSize="sm" mb="3">
        Deadline reminders arrive at 8:00 in this time zone.
      </Text>
      <Flex gap="3" align="flex-end" wrap="wrap">
        <Field.Root maxW="sm" disabled={me.is_read_only || saved.isPending}>
          <Field.Label>Time zone</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              name="time_zone"
              value={value}
              onChange={(e) => setChosen(e.currentTarget.value)}
            >
              <option value="">UTC (default)</option>
              {ZONES.map((z) => (
                <option key={z} value={z}>
                  {z.replace(/_/g, ' ')}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Button
          size="sm"
          colorPalette="brand"
          onClick={submit}
          loading={save.isPending}
          disabled={me.is_read_only || value === current}
          data-testid="save-time-zone"
        >
          Save Time Zone
        </Button>
      </Flex>
    </Box>
  );
}
