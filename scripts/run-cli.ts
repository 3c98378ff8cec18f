/**
 * Runs an operator command's `main` and sets the exit code it returns: 0 done, 1 a finding (a mismatch, a
 * refusal), 2 the command could not run, with the error in a sentence instead of a stack trace.
 */
export function runCli(what: string, main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      console.error(`${what} could not run: ${error instanceof Error ? error.message : String(error)}`)
      process.exitCode = 2
    },
  )
}

/**
 * The database the server is set to use, as it has it: DATABASE_URL (PostgreSQL, used when both are set) or
 * DATA_DIR (the embedded database's folder). Undefined, said on stderr, when neither is set: the command then
 * exits 2.
 */
export function serverDatabase():
  | { databaseUrl: string | undefined; dataDir: string | undefined }
  | undefined {
  const databaseUrl = process.env.DATABASE_URL
  const dataDir = process.env.DATA_DIR
  if (!databaseUrl && !dataDir) {
    console.error(
      'Set DATABASE_URL (PostgreSQL) or DATA_DIR (the embedded database’s folder) as the server has it.',
    )
    return undefined
  }
  return { databaseUrl, dataDir }
}
