import { Badge, Link, Stack, Text } from '@chakra-ui/react';
import { Page, PageHeader } from '../../components/page-header';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { switchGridView } from '../shell/menu';

/** A screen of a later release: a clear 'coming soon' notice inside the shell. */
export function PlaceholderRoute({ title }: { title: string }) {
  const { pathname } = useLocation();
  const other = switchGridView(pathname);
  return (
    <Page data-testid="coming-soon">
      <PageHeader
        title={title}
        actions={
          <Badge colorPalette="orange" size="lg">
            Coming soon
          </Badge>
        }
      />
      <Stack gap="4" bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 4, md: 8 }} maxW="3xl">
        <Text color="fg.muted">This screen is coming soon: it is part of a later release of the portal.</Text>
        <Text fontSize="sm" color="fg.subtle">
          Route: <code>{pathname}</code>
        </Text>
        {other && (
          <Link asChild color="brand.fg">
            <RouterLink to={other}>
              {other.endsWith('-new') ? 'Switch to the data-grid view' : 'Switch to the classic view'}
            </RouterLink>
          </Link>
        )}
      </Stack>
    </Page>
  );
}
