import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Each service owns its schema (design §13): its SQL names only its own schema, `jobs` (the one job
 * engine every service enqueues into) and the `<x>_api` schemas other services declare for it (views
 * and functions created by the owner's migrations, e.g. cases_api by services/case/migrations/035).
 * Everything else another service wants is asked of it (an internal route, or a job).
 *
 * A plain source scan: the string and template literals of every .ts file under services/<name>/src
 * and packages/<name>/src (tests left out; comments are not literals) are searched for schema-qualified
 * names in SQL positions: after from, join, update, into, references and table, and called as
 * functions (`cases_api.set_representment_status(`). A name counts when its schema is one the portal
 * creates: a service's own (the `schema` of its migrations.ts), jobs, pgboss, public, or any `*_api`.
 * An `<x>_api` name must also be declared: created by a migration of the service owning `<x>`.
 */
const ROOT = process.cwd();

/** Schemas every unit may name: the job engine's status records (packages/jobs) are shared by design (§9). */
const SHARED = ['jobs'];

/**
 * Files that may name more than their unit allows, and what: each entry says why. An entry nothing
 * needs any more fails the test, so the list only shrinks.
 */
const ALLOWED: ReadonlyArray<{ files: RegExp; schemas: readonly string[]; reason: string }> = [
  {
    files: /^services\/docs\/src\/seed\//,
    schemas: ['cases'],
    reason:
      "The seed step (runner migrate / npm start, after every service's migrations, never a running " +
      "service) builds one set of demo data: docs' seed picks the seeded cases, merchants, MIDs and " +
      'reference data to give them representment documents and templates.',
  },
  {
    files: /^services\/builder\/src\/seed\.ts$/,
    schemas: ['cases'],
    reason: "The seed step: the builder's demo products are attached to the seeded merchants.",
  },
  {
    files: /^services\/runner\/src\/reset\.ts$/,
    schemas: ['docs'],
    reason:
      'The runner is the migrate/seed/reset step, not a service: the demo reset lists the objects the ' +
      'fresh seed stored (docs.objects) to delete only the files uploaded since.',
  },
];

interface Unit {
  /** Directory scanned, relative to the root. */
  dir: string;
  /** The schema the unit owns (services), or null (the runner and shared packages own none). */
  own: string | null;
}

function listDirs(path: string): string[] {
  return readdirSync(join(ROOT, path)).filter((d) => statSync(join(ROOT, path, d)).isDirectory());
}

/** Each service's src with the schema its migrations.ts names, and each package's src. */
function units(): Unit[] {
  const services = listDirs('services')
    .filter((name) => existsSync(join(ROOT, 'services', name, 'src')))
    .map((name) => {
      const plan = join(ROOT, 'services', name, 'src', 'migrations.ts');
      const own = existsSync(plan)
        ? /\bschema:\s*'([a-z_][a-z0-9_]*)'/.exec(readFileSync(plan, 'utf8'))
        : null;
      return { dir: `services/${name}/src`, own: own?.[1] ?? null };
    });
  const packages = listDirs('packages')
    .filter((name) => existsSync(join(ROOT, 'packages', name, 'src')))
    .map((name) => ({ dir: `packages/${name}/src`, own: null }));
  return [...services, ...packages];
}

/** `<x>_api` schemas and their objects, as created by the migrations of the service owning `<x>`. */
function declaredApis(): { apis: Map<string, Set<string>>; misplaced: string[] } {
  const apis = new Map<string, Set<string>>();
  const misplaced: string[] = [];
  for (const unit of units()) {
    const dir = join(ROOT, unit.dir, '..', 'migrations');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
      const sql = readFileSync(join(dir, file), 'utf8').replace(/--[^\n]*/g, '');
      for (const m of sql.matchAll(
        /\bcreate\s+schema\s+(?:if\s+not\s+exists\s+)?([a-z_][a-z0-9_]*_api)\b/gi,
      )) {
        const api = m[1]!.toLowerCase();
        if (api !== `${unit.own}_api`) misplaced.push(`${relative(ROOT, join(dir, file))}: ${api}`);
        apis.set(api, apis.get(api) ?? new Set());
      }
      const objects =
        /\bcreate\s+(?:or\s+replace\s+)?(?:materialized\s+)?(?:view|function)\s+([a-z_][a-z0-9_]*_api)\.([a-z_][a-z0-9_]*)/gi;
      for (const m of sql.matchAll(objects)) {
        const api = m[1]!.toLowerCase();
        apis.set(api, (apis.get(api) ?? new Set()).add(m[2]!.toLowerCase()));
      }
    }
  }
  return { apis, misplaced };
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sourceFiles(path));
    } else if (
      /\.tsx?$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
    ) {
      out.push(path);
    }
  }
  return out;
}

interface SqlName {
  line: number;
  schema: string;
  name: string;
}

/** `schema.name` after a SQL keyword that takes a relation, or `schema.fn(`; `schema.${...}` counts too. */
const AFTER_KEYWORD =
  /\b(?:from|join|update|into|references|table)\s+([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*|\$\{)/gi;
const CALLED = /(?<![\w$.])([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\s*\(/gi;

/** Schema-qualified SQL names in the string and template literals of a TypeScript source. */
function sqlNames(fileName: string, text: string): SqlName[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = new Map<string, SqlName>();
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const start = node.getStart(source);
      const literal = text.slice(start, node.getEnd());
      for (const pattern of [AFTER_KEYWORD, CALLED])
        for (const m of literal.matchAll(pattern)) {
          const at = start + m.index + m[0].indexOf(m[1]!);
          const line = source.getLineAndCharacterOfPosition(at).line + 1;
          const hit = { line, schema: m[1]!.toLowerCase(), name: m[2]!.toLowerCase() };
          found.set(`${at}`, hit);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found.values()].sort((a, b) => a.line - b.line);
}

/** Offences of one file: `file:line schema.name (reason)`. */
function offences(unit: Unit, file: string, apis: Map<string, Set<string>>, known: Set<string>): string[] {
  const out: string[] = [];
  for (const { line, schema, name } of sqlNames(file, readFileSync(join(ROOT, file), 'utf8'))) {
    const isApi = schema.endsWith('_api');
    if (!isApi && !known.has(schema)) continue; // an alias or a word in a message, not a portal schema
    const where = `${file}:${line} ${schema}.${name}`;
    if (isApi) {
      const objects = apis.get(schema);
      if (!objects) out.push(`${where} (no migration declares ${schema})`);
      else if (name !== '${' && !objects.has(name))
        out.push(`${where} (${schema} declares no ${name}: ${[...objects].sort().join(', ')})`);
      continue;
    }
    if (schema === unit.own || SHARED.includes(schema)) continue;
    if (ALLOWED.some((a) => a.files.test(file) && a.schemas.includes(schema))) continue;
    const owns = unit.own ? `owns ${unit.own}: it may name ${unit.own},` : 'owns no schema: it may name';
    out.push(`${where} (${unit.dir} ${owns} ${SHARED.join(', ')} and declared *_api only)`);
  }
  return out;
}

describe('schema ownership (design §13)', { timeout: 60_000 }, () => {
  const all = units();
  const { apis, misplaced } = declaredApis();
  const known = new Set([...all.map((u) => u.own).filter((s) => s !== null), 'jobs', 'pgboss', 'public']);

  it('finds the services and their schemas, and the declared cases_api', () => {
    expect(all.filter((u) => u.own).map((u) => u.own)).toEqual(
      expect.arrayContaining(['cases', 'users', 'docs', 'builder']),
    );
    expect([...(apis.get('cases_api') ?? [])]).toEqual(
      expect.arrayContaining(['merchants', 'mids', 'cases', 'alerts', 'set_representment_status']),
    );
  });

  it('declares each <x>_api in the migrations of the service owning <x>', () => {
    expect(misplaced).toEqual([]);
  });

  it("names only the unit's own schema, jobs and declared *_api in each service's and package's SQL", () => {
    const found = all.flatMap((unit) =>
      sourceFiles(unit.dir).flatMap((file) => offences(unit, file, apis, known)),
    );
    expect(found, `SQL naming another service's schema:\n${found.join('\n')}`).toEqual([]);
  });

  it('keeps no allow-list entry nothing needs', () => {
    const needed = ALLOWED.filter((entry) =>
      all.some((unit) =>
        sourceFiles(unit.dir)
          .filter((file) => entry.files.test(file))
          .some((file) =>
            sqlNames(file, readFileSync(join(ROOT, file), 'utf8')).some(
              (n) => entry.schemas.includes(n.schema) && n.schema !== unit.own,
            ),
          ),
      ),
    );
    expect(ALLOWED.filter((e) => !needed.includes(e)).map((e) => String(e.files))).toEqual([]);
  });

  it('finds names in SQL literals only: keywords, calls and interpolated names, not comments or code', () => {
    const probe = [
      '// select * from cases.cases (a comment)',
      'const a = `select c.id from cases.cases c',
      '  join cases.mids m on m.id = c.mid_id`;',
      "const b = 'select cases.case_held_by_other($1) as held';",
      'const c = `insert into docs.${table} (id) values ($1)`;',
      'const d = deps.cases.caseDetail(ctx, 1);',
      "const e = users.get('/users/users/1');",
      "const f = 'delete from users_api.mail_recipients where x';",
    ].join('\n');
    expect(sqlNames('probe.ts', probe).map((n) => `${n.line} ${n.schema}.${n.name}`)).toEqual([
      '2 cases.cases',
      '3 cases.mids',
      '4 cases.case_held_by_other',
      '5 docs.${',
      '8 users_api.mail_recipients',
    ]);
  });
});
