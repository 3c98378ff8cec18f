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
