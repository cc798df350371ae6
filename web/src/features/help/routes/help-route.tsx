import { Link, SimpleGrid, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Page, PageHeader } from '../../../components/page-header';
import { useProfile } from '../../../lib/auth/auth-context';
import { useTenant } from '../../../lib/tenant-config';
import { HelpTopicCard } from '../components/help-topic-card';
import { helpCards } from '../help-topics';

/**
 * /help (spec 3 §2 Help): the optional Documents link (tenant flag HELP, to
 * the document templates a response is built from) and the cards of the
 * tenant's configured topics.
 */
export default function HelpRoute() {
  const tenant = useTenant();
  const profile = useProfile();
  const features = useMemo(() => new Set(profile.features.map((f) => f.alias)), [profile]);
  const cards = useMemo(() => helpCards(tenant.help_topics, features), [tenant, features]);
  const documents = tenant.flags.HELP === true && features.has('templatelib');
  return (
    <Page data-testid="help">
      <PageHeader
        title="Help"
        actions={
          documents && (
            <Link asChild color="brand.fg" fontWeight="medium" data-testid="help-documents">
              <RouterLink to="/template-library">Documents</RouterLink>
            </Link>
          )
        }
      />
      {cards.length ? (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          {cards.map((c) => (
            <HelpTopicCard key={c.key} card={c} />
          ))}
        </SimpleGrid>
      ) : (
        <Text color="fg.muted" data-testid="help-empty">
          No help topics are available yet. For assistance, write to{' '}
          <Link href={`mailto:${tenant.support_email}`} color="brand.fg">
            {tenant.support_email}
          </Link>
          .
        </Text>
      )}
    </Page>
  );
}
