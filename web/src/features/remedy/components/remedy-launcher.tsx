import { REMEDY_MESSAGES as M } from '@portal/contracts';
import { Box, Button, Stack, Text } from '@chakra-ui/react';

/**
 * The compelling-evidence panel beside the upload (spec 2 §2.6, §2.8): when
 * the case may be remedied (properties.can_remedy, which the server computes
 * with the tenant's HAS_REMEDY), 'Eligible for CE3.0 Remedy' with the button
 * 'Start a CE 3.0 Remedy'; otherwise the not-eligible text.
 */
export function RemedyLauncher({
  canRemedy,
  disabled,
  onStart,
}: {
  canRemedy: boolean;
  disabled?: boolean;
  onStart: () => void;
}) {
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" bg="bg.subtle" data-testid="remedy-launcher">
      {canRemedy ? (
        <Stack gap="2">
          <Text fontWeight="semibold" data-testid="remedy-eligible">
            {M.launcherEligible}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {M.launcherExplain}
          </Text>
          <Button
            alignSelf="start"
            colorPalette="brand"
            size="sm"
            onClick={onStart}
            disabled={disabled}
            data-testid="remedy-start"
          >
            {M.launcherButton}
          </Button>
        </Stack>
      ) : (
        <Text fontSize="sm" data-testid="remedy-not-eligible">
          {M.notQualified}
        </Text>
      )}
    </Box>
  );
}
