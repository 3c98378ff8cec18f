// The lifecycle shared by the background jobs (the token index's syncs, the name refresher's passes, the
// leadership's tries): passes one after another until stopped, a pause between them that a wake or a stop
// ends, and a growing backoff after failures.

export type BackgroundLoopOptions = {
  /** One pass. 'busy': there is more to do, the next pass starts at once; 'idle': after the poll interval. */
  pass: () => Promise<'busy' | 'idle'>
  /** The pause after an idle pass, which `wake()` ends early. */
  pollMs: number
  /** The pause after the n-th failed pass in a row (n ≥ 1); `wake()` does not end it, `stop()` does. */
  backoffMs: (failures: number) => number
  /** A pass threw: told with the pause before the next try. */
  onFailure: (error: unknown, retryInMs: number) => void
}

export class BackgroundLoop {
  readonly #options: BackgroundLoopOptions
  #loop: Promise<void> | undefined
  #stopping = false
  #wake: (() => void) | undefined

  constructor(options: BackgroundLoopOptions) {
    this.#options = options
  }

  /** True from `stop()` until the next `start()`: a long pass checks it to end early. */
  get stopping(): boolean {
    return this.#stopping
  }

  /** Runs passes in the background until `stop()`; nothing when already running. */
  start(): void {
    if (this.#loop) return
    this.#stopping = false
    this.#loop = this.#run()
  }

  /** Ends the loop after the pass in progress (if any); resolves when it has ended. */
  async stop(): Promise<void> {
    this.#stopping = true
    this.#wake?.()
    await this.#loop
    this.#loop = undefined
  }

  /** Starts the next pass now rather than after the poll interval (not while backing off from failures). */
  wake(): void {
    this.#wake?.()
  }

  async #run(): Promise<void> {
    let failures = 0
    while (!this.#stopping) {
      let pauseMs = this.#options.pollMs
      let wakeable = true
      try {
        if ((await this.#options.pass()) === 'busy') pauseMs = 0
        failures = 0
      } catch (error) {
        failures++
        pauseMs = this.#options.backoffMs(failures)
        wakeable = false
        this.#options.onFailure(error, pauseMs)
      }
      if (this.#stopping) break
      if (pauseMs > 0) await this.#sleep(pauseMs, wakeable)
    }
  }

  async #sleep(ms: number, wakeable: boolean): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      const wake = () => {
        clearTimeout(timer)
        resolve()
      }
      // stop() always ends the pause; wake() only ends one after an idle pass.
      this.#wake = wakeable ? wake : () => this.#stopping && wake()
    })
    this.#wake = undefined
  }
}
