import { Badge, HStack, Stack, Text } from '@chakra-ui/react';
import type { CaseRow } from '@portal/contracts';
import { formatMoney } from '../../../lib/format';

/**
 * The case's win odds in the builder (issue 33): the probability of winning
 * if represented, the expected value, the recommendation and the two or
 * three factors that drive it (or, where the model did not beat it, the
 * reason code's historical win rate, which says so).
 */
export function WinOddsPanel({ row }: { row: Pick<CaseRow, 'win_odds' | 'dispute_currency'> }) {
  const score = row.win_odds;
  if (!score) return null;
  const fight = score.recommendation === 'Fight';
  return (
    <Stack
      gap="1"
      borderWidth="1px"
      borderRadius="md"
      px="3"
      py="2"
      fontSize="sm"
      data-testid="builder-win-odds"
    >
      <HStack gap="2" wrap="wrap">
        <Badge colorPalette={fight ? 'green' : 'gray'} variant="solid">
          {`Win ${Math.round(score.probability * 100)}% · ${score.recommendation}`}
        </Badge>
        <Text>
          Expected value {formatMoney(score.expected_value, row.dispute_currency)}
          {score.source === 'baseline' ? ' (reason code history: the model did not beat it)' : ''}
        </Text>
      </HStack>
      {score.factors.length > 0 && (
        <Text color="fg.muted" data-testid="builder-win-odds-factors">
          {'Driven by: ' +
            score.factors
              .map((f) =>
                f.effect ? `${f.label} (${f.effect > 0 ? 'raises' : 'lowers'} the odds)` : f.label,
              )
              .join('; ')}
        </Text>
      )}
    </Stack>
  );
}
