/** A benchmark's whole-number option: `--name N` on the command line, else the environment's `envName`, else `fallback`. */
export function option(argv: string[], name: string, envName: string, fallback: number, max: number): number {
  const i = argv.indexOf(`--${name}`);
  const raw = i >= 0 ? argv[i + 1] : (process.env[envName] ?? String(fallback));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be a whole number from 1 to ${max} (got ${raw})`);
  return n;
}
