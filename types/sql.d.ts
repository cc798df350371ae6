// SQL migration files are imported as text (esbuild and vitest loaders in scripts/ and vitest.config.ts).
declare module '*.sql' {
  const sql: string;
  export default sql;
}
