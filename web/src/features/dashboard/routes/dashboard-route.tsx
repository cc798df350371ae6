import { Box, Heading } from '@chakra-ui/react';

export default function DashboardRoute() {
  return (
    <Box p="6" data-testid="dashboard">
      <Heading>Dashboard</Heading>
    </Box>
  );
}
