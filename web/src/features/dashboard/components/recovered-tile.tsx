import { Box, Icon, Skeleton, Stat, Text } from '@chakra-ui/react';
import { Minus, TrendingDown, TrendingUp } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { queryErrorMessage } from '../../../lib/errors';
import { formatMoney } from '../../../lib/format';
import { useRecovered } from '../api/get-recovered';
import { recoveredChange } from './recovered-change';

const TONE = { up: 'green.700', down: 'red.700', flat: 'fg.muted' } as const;
const ARROW = { up: TrendingUp, down: TrendingDown, flat: Minus } as const;

/**
 * 'Recovered' (issue 33): net recovered (recovered - fees) of the cases posted this month, in the tenant's
 * reporting currency, against last month; the merchant switcher narrows it like the other tiles.
 */
export function RecoveredTile({ clientId }: { clientId: number | undefined }) {
  const q = useRecovered(clientId);
  const change = recoveredChange(q.data?.change_percent ?? null);
  const Arrow = ARROW[change.tone];
  return (
    <RouterLink to="/reports#recovered-revenue" data-testid="tile-recovered-link">
      <Stat.Root
        bg="white"
        borderRadius="lg"
        borderWidth="1px"
        borderLeftWidth="5px"
        borderLeftColor="brand.solid"
        p="4"
        h="full"
        _hover={{ boxShadow: 'md', borderColor: 'brand.muted' }}
        data-testid="tile-recovered"
      >
        <Stat.Label fontSize="sm">Recovered This Month (net)</Stat.Label>
        {q.isPending ? (
          <Box as="dd">
            <Skeleton h="8" w="24" />
          </Box>
        ) : q.isError ? (
          <Text as="dd" color="red.600" fontSize="sm">
            {queryErrorMessage(q.error)}
          </Text>
        ) : (
          <>
            <Stat.ValueText fontSize="3xl" color="brand.fg" data-testid="tile-recovered-value">
              {formatMoney(q.data.this_month.net, q.data.currency)}
            </Stat.ValueText>
            {/* A definition list holds only dt and dd: the comparison is a dd of its own. */}
            <Box as="dd">
              <Stat.HelpText color={TONE[change.tone]} mb="0" data-testid="tile-recovered-change">
                <Icon size="sm" aria-hidden="true" mr="1" verticalAlign="middle" data-tone={change.tone}>
                  <Arrow />
                </Icon>
                {change.text} ({formatMoney(q.data.last_month.net, q.data.currency)})
              </Stat.HelpText>
            </Box>
          </>
        )}
      </Stat.Root>
    </RouterLink>
  );
}
