import { Box, Button, Flex, Heading, Icon, Link, Stack, Text } from '@chakra-ui/react';
import { Play } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { HelpCard } from '../help-topics';
import { HelpVideoDialog } from './help-video-dialog';

/** One topic card: title, what it covers, its video when configured, and the screen it is about when the user may open it. */
export function HelpTopicCard({ card }: { card: HelpCard }) {
  const [playing, setPlaying] = useState(false);
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
        <Flex gap="4" align="center" wrap="wrap">
          {card.videoUrl && (
            <Button
              size="sm"
              variant="outline"
              colorPalette="brand"
              onClick={() => setPlaying(true)}
              data-testid="help-video-button"
            >
              <Icon>
                <Play />
              </Icon>
              Watch video
            </Button>
          )}
          {card.screen && (
            <Link asChild color="brand.fg" fontSize="sm" fontWeight="medium">
              <RouterLink to={card.screen.path}>{card.screen.label}</RouterLink>
            </Link>
          )}
        </Flex>
      </Stack>
      {playing && card.videoUrl && (
        <HelpVideoDialog title={card.title} src={card.videoUrl} onClose={() => setPlaying(false)} />
      )}
    </Box>
  );
}
