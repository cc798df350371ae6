import { Box, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import type { HelpCard } from '../help-topics';

/** One topic card: title, what it covers, and the screen it is about when the user may open it. */
export function HelpTopicCard({ card }: { card: HelpCard }) {
  return (
    <Box
      as="article"
      bg="white"
      borderWidth="1px"
      borderRadius="lg"
      p="5"
      data-testid="help-topic"
      aria-label={card.title}
    >
      <Stack gap="3" h="full">
        <Heading size="md">{card.title}</Heading>
        <Text color="fg.muted" fontSize="sm" flex="1">
          {card.description}
        </Text>
        {card.screen && (
          <Link asChild color="brand.fg" fontSize="sm" fontWeight="medium">
            <RouterLink to={card.screen.path}>{card.screen.label}</RouterLink>
          </Link>
        )}
      </Stack>
    </Box>
  );
}
