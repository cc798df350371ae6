#!/usr/bin/env node
// Mints a demo single sign-on token for POST /api/users/auth/artego.
//   node services/user/scripts/mint-sso-token.mjs <tenant> [username] [dataDir]
// e.g. node services/user/scripts/mint-sso-token.mjs acme federated .data
// The key is DATA_DIR/keys/sso-<tenant>.pem, generated when the user service starts (outside production).
import { createPrivateKey, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';

const [tenant = 'acme', username = 'federated', dataDir = '.data'] = process.argv.slice(2);
const key = createPrivateKey(readFileSync(join(dataDir, 'keys', `sso-${tenant}.pem`), 'utf8'));
const token = await new SignJWT({ username })
  .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
  .setSubject(username)
  .setIssuer(`https://sso.${tenant}.localhost/demo`)
  .setAudience(`chargeback-portal:${tenant}`)
  .setIssuedAt()
  .setJti(randomUUID())
  .setExpirationTime('2m')
  .sign(key);
process.stdout.write(`${token}\n`);
