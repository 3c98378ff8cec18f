// Many requests, one statement (ADR 077): what the requests of one event-loop turn ask the database goes in
// one statement, and while it runs what the next turns ask waits to go in the next one. Under load each
// statement carries more requests, so the round trips and the statements PostgreSQL plans do not grow with
// the requests; with one request at a time it goes at once, as it would alone.

/** One statement's work: an answer per item, in the items' order, or a rejection that fails them all. */
export type RunBatch<Item, Answer> = (items: readonly Item[]) => Promise<readonly Answer[]>

export class TurnBatches<Item, Answer> {
  readonly #run: RunBatch<Item, Answer>
  #pending: { item: Item; settle: (answer: { ok: Answer } | { error: unknown }) => void }[] = []
  #scheduled = false
  #running = false

  constructor(run: RunBatch<Item, Answer>) {
    this.#run = run
  }

  /** `item`'s answer, from the statement of its turn (or the next one, while one runs). */
  add(item: Item): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.#pending.push({
        item,
        settle: (answer) => ('ok' in answer ? resolve(answer.ok) : reject(answer.error)),
      })
      this.#schedule()
    })
  }

  /** After the turn's I/O callbacks, so the requests read in this turn go together; or after the one running. */
  #schedule() {
    if (this.#scheduled || this.#running) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      this.#running = true
      this.#runPending().finally(() => {
        this.#running = false
        if (this.#pending.length > 0) this.#schedule()
      })
    })
  }

  async #runPending() {
    const batch = this.#pending
    this.#pending = []
    let answers: readonly Answer[]
    try {
      answers = await this.#run(batch.map(({ item }) => item))
      if (answers.length !== batch.length)
        throw new Error(`a batch of ${batch.length} got ${answers.length} answers`)
    } catch (error) {
      for (const { settle } of batch) settle({ error })
      return
    }
    for (const [index, { settle }] of batch.entries()) settle({ ok: answers[index] as Answer })
  }
}
