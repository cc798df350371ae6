import type { ServiceMigrations } from '@portal/core';
import identity from '../migrations/001_identity.sql';
import sessions from '../migrations/002_sessions.sql';
import usersGrid from '../migrations/003_users_grid.sql';
import webhooks from '../migrations/005_webhooks.sql';
import audit from '../migrations/006_audit.sql';
import reminders from '../migrations/007_reminders.sql';
import saml from '../migrations/010_saml.sql';
import savedViews from '../migrations/011_saved_views.sql';
import usersSearch from '../migrations/012_users_search.sql';
import usersApi from '../migrations/013_users_api.sql';
import chatDestinations from '../migrations/014_chat_destinations.sql';
import apiKeys from '../migrations/015_api_keys.sql';

export const userMigrations: ServiceMigrations = {
  schema: 'users',
  migrations: [
    { version: 1, name: 'identity', sql: identity },
    { version: 2, name: 'sessions', sql: sessions },
    { version: 3, name: 'users_grid', sql: usersGrid },
    { version: 5, name: 'webhooks', sql: webhooks },
    { version: 6, name: 'audit', sql: audit },
    { version: 7, name: 'reminders', sql: reminders },
    { version: 10, name: 'saml', sql: saml },
    { version: 11, name: 'saved_views', sql: savedViews },
    { version: 12, name: 'users_search', sql: usersSearch },
    { version: 13, name: 'users_api', sql: usersApi },
    { version: 14, name: 'chat_destinations', sql: chatDestinations },
    { version: 15, name: 'api_keys', sql: apiKeys },
  ],
};
