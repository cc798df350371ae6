import { Box, Breadcrumb, Flex, Heading, Stack, Text, type BoxProps, type FlexProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

/** One step of a breadcrumb: a link when it has `to`, else the current page. */
export interface Crumb {
  label: string;
  to?: string;
}

export interface PageHeaderProps extends Omit<FlexProps, 'title'> {
  /** The page's title, the page's one h1. */
  title: ReactNode;
  /** The spec's breadcrumb, where it gives one (e.g. 'Add/Edit Merchant'). */
  breadcrumb?: Crumb[];
  /** A line under the title. */
  description?: ReactNode;
  /** Buttons and controls on the right; they wrap under the title on a narrow screen. */
  actions?: ReactNode;
  /** data-testid of the title (tests read some titles). */
  titleTestId?: string;
}

/**
 * The one header of every route (issue 29.2): breadcrumb, title, description and an actions area, with
 * the same size, spacing and wrapping everywhere. Primary actions are plain <Button>s: the theme's solid
 * variant is the brand colour.
 */
export function PageHeader({
  title,
  breadcrumb,
  description,
  actions,
  titleTestId,
  ...rest
}: PageHeaderProps) {
  return (
    <Flex
      align="center"
      wrap="wrap"
      columnGap="4"
      rowGap="3"
      mb="4"
      minW="0"
      data-testid="page-header"
      {...rest}
    >
      <Stack gap="1" flex="1 1 16rem" minW="0">
        {breadcrumb && breadcrumb.length > 0 && (
          <Breadcrumb.Root size="sm" data-testid="breadcrumb">
            <Breadcrumb.List flexWrap="wrap">
              {breadcrumb.map((c, i) => (
                <Crumbs key={c.label} crumb={c} last={i === breadcrumb.length - 1} />
              ))}
            </Breadcrumb.List>
          </Breadcrumb.Root>
        )}
        <Heading as="h1" size="xl" lineHeight="short" overflowWrap="anywhere" data-testid={titleTestId}>
          {title}
        </Heading>
        {description && (
          <Text color="fg.muted" fontSize="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions && (
        <Flex
          gap="2"
          wrap="wrap"
          align="center"
          // Under the title on a narrow screen they start at the left; beside it they keep to the right.
          justify={{ base: 'flex-start', md: 'flex-end' }}
          minW="0"
          maxW="full"
          data-testid="page-actions"
        >
          {actions}
        </Flex>
      )}
    </Flex>
  );
}

function Crumbs({ crumb, last }: { crumb: Crumb; last: boolean }) {
  return (
    <>
      <Breadcrumb.Item>
        {crumb.to && !last ? (
          <Breadcrumb.Link asChild color="brand.fg">
            <RouterLink to={crumb.to}>{crumb.label}</RouterLink>
          </Breadcrumb.Link>
        ) : (
          <Breadcrumb.CurrentLink color="fg.muted">{crumb.label}</Breadcrumb.CurrentLink>
        )}
      </Breadcrumb.Item>
      {!last && <Breadcrumb.Separator />}
    </>
  );
}

/** The frame around a route's content: the same padding on every page, never wider than the main area. */
export function Page({ children, ...rest }: BoxProps) {
  return (
    <Box p={{ base: 3, md: 6 }} minW="0" {...rest}>
      {children}
    </Box>
  );
}
