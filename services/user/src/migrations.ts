import type { ServiceMigrations } from '@portal/core';
import identity from '../migrations/001_identity.sql';
import sessions from '../migrations/002_sessions.sql';
import usersGrid from '../migrations/003_users_grid.sql';

export const userMigrations: ServiceMigrations = {
  schema: 'users',
  migrations: [
    { version: 1, name: 'identity', sql: identity },
    { version: 2, name: 'sessions', sql: sessions },
    { version: 3, name: 'users_grid', sql: usersGrid },
  ],
};
