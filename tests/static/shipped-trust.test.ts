/**
 * What production deploys trusts no key that anyone with the repository holds
 * (security issue 27 F). Every private key git tracks (PEM anywhere in a
 * text file, or a DER key file) gives its public key; every certificate or
 * public key found in a shipped configuration file (config/**, deploy/**, the
 * compose file: the tenant ConfigMap, the manifests) must be of none of them,
 * nor name itself test-only. The demo tenant's IdP certificate is generated
 * into DATA_DIR instead (services/user/src/auth/saml/demo-idp-key.ts).
 *
 * Also: services/user/src/auth/saml/repository-keys.ts, the list a production
 * start refuses, is exactly the public keys of the committed private keys and
 * fixture certificates.
 *
 * SHIPPED_TRUST_GIT_REF=<commit> checks that commit's files instead of the work
 * tree: `SHIPPED_TRUST_GIT_REF=a14131d3 npx vitest run --project unit
 * tests/static/shipped-trust.test.ts` fails, as northbank.yaml there trusted
 * the fixture IdP (the last test checks that commit on every run).
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_KEYS } from '../../services/user/src/auth/saml/repository-keys';
import { publicKeyFingerprint, TEST_ONLY_NAME } from '../../services/user/src/auth/saml/trust';

const ROOT = join(import.meta.dirname, '..', '..');
const REF = process.env.SHIPPED_TRUST_GIT_REF;
/** The last commit whose shipped northbank.yaml trusted the fixture IdP (its key is committed). */
const BEFORE_FIX = 'a14131d3';
const MAX_BYTES = 2 * 1024 * 1024;

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' });

/** The files of the repository: the work tree, or one commit's tree. */
interface Tree {
  files: string[];
  read(path: string): Buffer | null;
}

/** Tracked files and new ones not ignored: a file added but not committed counts too. */
function workTree(): Tree {
  const out = git('ls-files', '-z', '--cached', '--others', '--exclude-standard');
  return {
    files: [...new Set(out.toString('utf8').split('\0').filter(Boolean))].sort(),
    read(path) {
      const file = join(ROOT, path);
      if (!existsSync(file) || !statSync(file).isFile() || statSync(file).size > MAX_BYTES) return null;
      return readFileSync(file);
    },
  };
}

/** A commit's files, read in one `git cat-file --batch`. */
function commitTree(ref: string): Tree {
  const entries = git('ls-tree', '-r', '-l', '-z', ref)
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split('\t') as [string, string];
      const [, type, sha, size] = meta.split(/\s+/) as [string, string, string, string];
      return { path, type, sha, size: Number(size) };
    })
    .filter((e) => e.type === 'blob' && e.size <= MAX_BYTES);
  const blobs = new Map<string, Buffer>();
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd: ROOT,
    input: entries.map((e) => e.sha).join('\n') + '\n',
    maxBuffer: 1024 * 1024 * 1024,
  });
  let at = 0;
  for (const e of entries) {
    const eol = out.indexOf(0x0a, at);
    const size = Number(out.subarray(at, eol).toString('latin1').split(' ')[2]);
    blobs.set(e.path, out.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return { files: entries.map((e) => e.path).sort(), read: (path) => blobs.get(path) ?? null };
}

const treeOf = (ref: string | undefined) => (ref ? commitTree(ref) : workTree());

const SHIPPED = (path: string) =>
  path.startsWith('config/') || path.startsWith('deploy/') || /^docker-compose[^/]*\.ya?ml$/.test(path);

interface Pem {
  label: string;
  der: Buffer;
}

/**
 * PEM blocks of a text however it is quoted: a YAML block scalar (indented), a
 * JSON or YAML string with `\n` escapes, a plain file.
 */
function pemBlocks(text: string): Pem[] {
  const plain = text.replace(/\\r/g, '').replace(/\\n/g, '\n');
  const out: Pem[] = [];
  for (const m of plain.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)) {
    const body = m[2]!.replace(/[^A-Za-z0-9+/=]/g, '');
    if (body.length >= 64) out.push({ label: m[1]!, der: Buffer.from(body, 'base64') });
  }
  return out;
}

const spki = (key: KeyObject) =>
  createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');

function privateKeyOf(pem: Pem): KeyObject | null {
  const type = pem.label === 'RSA PRIVATE KEY' ? 'pkcs1' : pem.label === 'EC PRIVATE KEY' ? 'sec1' : 'pkcs8';
  try {
    return createPrivateKey({ key: pem.der, format: 'der', type });
  } catch {
    return null; // not a key node reads: a placeholder, an encrypted key
  }
}

/** Public keys of the private keys in these files: fingerprint -> where. */
function committedKeys(tree: Tree): Map<string, string> {
  const keys = new Map<string, string>();
  for (const path of tree.files) {
    const bytes = tree.read(path);
    if (!bytes || bytes.length > MAX_BYTES) continue;
    if (bytes.includes(0)) {
      // A binary file: a DER private key?
      if (!/\.(der|key|p8|pk8)$/i.test(path)) continue;
      for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
        try {
          const key = createPrivateKey({ key: bytes, format: 'der', type });
          keys.set(spki(createPublicKey(key)), path);
          break;
        } catch {
          // not this format
        }
      }
      continue;
    }
    for (const pem of pemBlocks(bytes.toString('utf8'))) {
      if (!/PRIVATE KEY$/.test(pem.label)) continue;
      const key = privateKeyOf(pem);
      if (key) keys.set(spki(createPublicKey(key)), path);
    }
  }
  return keys;
}

interface Trusted {
  path: string;
  what: string;
  fingerprint: string;
  names: string[];
}

/** Certificates and public keys in a file's text (or the file itself when it is a DER certificate). */
function trustedIn(path: string, bytes: Buffer): Trusted[] {
  const out: Trusted[] = [];
  const certificate = (der: Buffer) => {
    try {
      const cert = new X509Certificate(der);
      out.push({
        path,
        what: `certificate '${cert.subject.replace(/\s+/g, ' ')}'`,
        fingerprint: publicKeyFingerprint(cert),
        names: [cert.subject, cert.issuer],
      });
      return true;
    } catch {
      return false;
    }
  };
  if (bytes.includes(0)) {
    certificate(bytes);
    return out;
  }
  for (const pem of pemBlocks(bytes.toString('utf8'))) {
    if (pem.label === 'CERTIFICATE' || pem.label === 'TRUSTED CERTIFICATE') certificate(pem.der);
    else if (pem.label === 'PUBLIC KEY') {
      try {
        const key = createPublicKey({ key: pem.der, format: 'der', type: 'spki' });
        out.push({ path, what: 'public key', fingerprint: spki(key), names: [] });
      } catch {
        // a placeholder
      }
    }
  }
  return out;
}

/** One line per certificate or key of a shipped file that anyone with the repository could sign for. */
function shippedTrustProblems(
  shipped: Array<{ path: string; bytes: Buffer }>,
  keys: Map<string, string>,
): string[] {
  const problems: string[] = [];
  for (const { path, bytes } of shipped) {
    for (const t of trustedIn(path, bytes)) {
      const committed = keys.get(t.fingerprint);
      if (committed) problems.push(`${path}: ${t.what} is of the private key committed at ${committed}`);
      else if (t.names.some((n) => TEST_ONLY_NAME.test(n)))
        problems.push(`${path}: ${t.what} says it is for tests only`);
    }
  }
  return problems;
}

function shippedFiles(tree: Tree) {
  return tree.files
    .filter(SHIPPED)
    .map((path) => ({ path, bytes: tree.read(path) }))
    .filter((f): f is { path: string; bytes: Buffer } => f.bytes !== null);
}

describe('shipped trust', () => {
  const tree = treeOf(REF);
  const keys = committedKeys(tree);

  it('no certificate a shipped configuration trusts belongs to a committed private key', () => {
    const shipped = shippedFiles(tree);
    expect(shipped.map((f) => f.path)).toContain('config/tenants/northbank.yaml');
    expect(shippedTrustProblems(shipped, keys)).toEqual([]);
  });

  it('the list a production start refuses holds exactly the committed keys and fixture certificates', () => {
    const expected = new Map(keys);
    for (const path of tree.files.filter((f) => /(^|\/)fixtures\//.test(f))) {
      const bytes = tree.read(path);
      if (!bytes) continue;
      for (const t of trustedIn(path, bytes))
        if (!expected.has(t.fingerprint)) expected.set(t.fingerprint, path);
    }
    const listed = Object.keys(REPOSITORY_KEYS).sort();
    const missing = [...expected].filter(([fp]) => !listed.includes(fp)).map(([fp, p]) => `${fp} (${p})`);
    expect(missing, 'add these to services/user/src/auth/saml/repository-keys.ts').toEqual([]);
    expect(
      listed.filter((fp) => !expected.has(fp)),
      'no longer in the repository',
    ).toEqual([]);
    // The walk itself works: it finds the SAML test IdPs' keys.
    expect([...keys.values()]).toEqual(
      expect.arrayContaining([
        'tests/integration/saml/fixtures/test-idp.key',
        'tests/integration/saml/fixtures/other-idp.key',
      ]),
    );
  });

  it('catches a committed key’s certificate however a shipped file quotes it', () => {
    const cert = readFileSync(join(ROOT, 'tests/integration/saml/fixtures/test-idp.crt'), 'utf8');
    const yaml = `saml:\n  idp_certs:\n    - |\n${cert
      .trim()
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n')}\n`;
    const json = JSON.stringify({ saml: { idp_certs: [cert] } });
    const problems = shippedTrustProblems(
      [
        { path: 'config/tenants/x.yaml', bytes: Buffer.from(yaml) },
        { path: 'config/tenants/y.json', bytes: Buffer.from(json) },
      ],
      keys,
    );
    expect(problems).toEqual([
      expect.stringMatching(/^config\/tenants\/x\.yaml: certificate .*\/test-idp\.key$/),
      expect.stringMatching(/^config\/tenants\/y\.json: certificate .*\/test-idp\.key$/),
    ]);
  });

  const beforeFix = (() => {
    try {
      git('cat-file', '-e', `${BEFORE_FIX}^{commit}`);
      return true;
    } catch {
      return false; // a shallow clone
    }
  })();
  it.skipIf(!beforeFix)(
    'fails on the tree before the fix (northbank.yaml trusted the fixture IdP)',
    { timeout: 30_000 },
    () => {
      const old = commitTree(BEFORE_FIX);
      expect(shippedTrustProblems(shippedFiles(old), committedKeys(old))).toEqual([
        expect.stringMatching(
          /^config\/tenants\/northbank\.yaml: certificate 'CN=test-idp\.example \(test only\)' is of the private key committed at tests\/integration\/saml\/fixtures\/test-idp\.key$/,
        ),
      ]);
    },
  );
});
