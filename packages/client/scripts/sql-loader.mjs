import { register } from 'node:module';

register('./sql-hooks.mjs', import.meta.url);
