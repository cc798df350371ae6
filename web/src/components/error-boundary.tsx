import { Box, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { Component, type ErrorInfo, type ReactNode } from 'react';

export function errorBoundaryMessage(area?: string): string {
  return area ? `Something went wrong in ${area}!` : 'Something went wrong!';
}

export function ErrorFallback({ area, onRetry }: { area?: string; onRetry?: () => void }) {
  return (
    <Box p="8" data-testid="error-boundary">
      <Stack gap="3" align="flex-start">
        <Heading size="lg">{errorBoundaryMessage(area)}</Heading>
        <Text color="fg.muted">Please try again. If the problem persists, contact support.</Text>
        {onRetry && (
          <Button size="sm" colorPalette="brand" onClick={onRetry}>
            Try Again
          </Button>
        )}
      </Stack>
    </Box>
  );
}

/** Rendering failures in an area show 'Something went wrong in {area}!' (spec 1 §8). */
export class ErrorBoundary extends Component<
  { area?: string; children: ReactNode; resetKey?: string },
  { error: Error | null; key?: string }
> {
  override state: { error: Error | null; key?: string } = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: { resetKey?: string },
    state: { error: Error | null; key?: string },
  ) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error)
      return <ErrorFallback area={this.props.area} onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
