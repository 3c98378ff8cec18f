// The shape of bench-results/bench.json. The bench checks its own output against it before writing, and
// CI checks the figures committed in docs/bench.json (shape only: the budget is for people to judge).
// The result types the bench code shares with bench.json are inferred from here, so each is defined once.
import { z } from 'zod'

const spread = z.object({
  median: z.number(),
  min: z.number(),
  max: z.number(),
  samples: z.array(z.number()).min(1),
})
const jsSize = z.object({ files: z.number().int(), raw: z.number(), gzip: z.number() })
const pageTimings = z.object({
  fcp: spread,
  connectVisible: spread,
  connectReady: spread,
  /** ms since navigation start until the connect dialog opens, "Connect Wallet" tapped the moment it shows. */
  modalAtFirstSight: spread,
  modalOpen: spread,
  walletList: spread,
  heapBytes: spread,
  longTasks: spread,
  longTaskMs: spread,
})
const rpcCount = z.object({
  posts: z.number().int(),
  calls: z.number().int(),
  methods: z.record(z.string(), z.number()),
})
const networkAtLoad = z.object({
  rpc: rpcCount,
  external: z.object({ count: z.number().int(), hosts: z.record(z.string(), z.number()) }),
})
const reference = z.object({
  label: z.string(),
  bundle: z.record(z.string(), z.unknown()),
  pages: z.record(z.enum(['desktop', 'phone']), pageTimings),
  network: z.record(z.string(), z.unknown()),
})
const budgetLine = z.object({
  budget: z.string(),
  pass: z.boolean(),
  value: z.number(),
  limit: z.number(),
  unit: z.enum(['KiB', 'ms', 'requests']),
  measured: z.string(),
  miss: z.string().optional(),
})
const lighthouseRun = z.object({
  page: z.string(),
  preset: z.enum(['desktop', 'mobile']),
  scores: z.record(z.string(), z.number().nullable()),
  performanceScores: z.array(z.number().nullable()).min(1),
  metrics: z.object({
    fcp: z.number().nullable(),
    lcp: z.number().nullable(),
    tbt: z.number().nullable(),
    cls: z.number().nullable(),
    si: z.number().nullable(),
  }),
})
/** Milliseconds, rounded: p50 is report.ts's spread() median. */
const latency = z.object({ p50: z.number(), p99: z.number(), max: z.number() })
const signInRun = z.object({
  concurrency: z.number().int(),
  accounts: z.number().int(),
  verify: z.object({ latency, perSecond: z.number(), ok: z.number().int() }),
  nonce: z.object({ latency, perSecond: z.number(), ok: z.number().int() }),
  cpuPerVerify: z.object({ apiServer: z.number(), databaseServer: z.number().nullable() }),
})
const governanceResult = z.object({
  ingest: z.array(
    z.union([
      z.object({
        database: z.string(),
        voters: z.number().int(),
        proposals: z.number().int(),
        concurrency: z.number().int(),
        votes: z.number().int(),
        votesPerSecond: z.number(),
        latencyMs: latency,
        /** Answers other than 201 (or no answer) in the measured window. */
        errors: z.number().int(),
        /** CPU milliseconds per vote in the window: the API server process, and PostgreSQL's processes (null: PGlite). */
        cpuMsPerVote: z.object({ apiServer: z.number(), databaseServer: z.number().nullable() }),
      }),
      z.object({ database: z.string(), skipped: z.string() }),
    ]),
  ),
  tally: z.array(z.object({ votes: z.number().int(), ms: z.number() })).min(1),
  index: z.object({
    database: z.string(),
    transfers: z.number().int(),
    events: z.number().int(),
    blocks: z.number().int(),
    maxRange: z.number().int(),
    seconds: z.number(),
    eventsPerSecond: z.number(),
    /** CPU seconds over the sync: this process (index, PGlite, decoding) and anvil (serving the logs). */
    cpuSeconds: z.object({ indexer: z.number(), anvil: z.number().nullable() }),
    checkedAccounts: z.number().int(),
  }),
  lookup: z.object({ lookups: z.number().int(), accounts: z.number().int(), latencyUs: latency }),
})

export type Spread = z.infer<typeof spread>
export type Size = z.infer<typeof jsSize>
export type RpcCount = z.infer<typeof rpcCount>
export type NetworkAtLoad = z.infer<typeof networkAtLoad>
/** One budget line: `value` and `limit` in `unit` (KiB, ms or requests); `measured` and `miss` as printed. */
export type BudgetLine = z.infer<typeof budgetLine>
export type Latency = z.infer<typeof latency>
export type GovernanceBenchResult = z.infer<typeof governanceResult>

const directoryLatency = z.object({
  sorted: z.array(
    z.object({
      sort: z.enum(['power', 'delegators', 'participation']),
      firstPage: latency,
      deepPage: latency,
    }),
  ),
  /** By the start of an address (0x and two hex digits), sorted by power, and by participation. */
  searched: latency,
  searchedSorted: latency,
  /** By the start of a name (about 1 in 100 named members matches), sorted by power; absent in older runs. */
  searchedByName: latency.optional(),
})
export type DirectoryLatency = z.infer<typeof directoryLatency>

const scaleRun = z.object({
  database: z.string(),
  index: z.object({ events: z.number().int(), seconds: z.number() }),
  seedSeconds: z.number(),
  detail: z.object({
    bytes: z.number().int(),
    gzipBytes: z.number().int(),
    readers: z.array(
      z.object({
        concurrency: z.number().int(),
        requests: z.number().int(),
        latencyMs: latency,
        errors: z.number().int(),
      }),
    ),
  }),
  votesList: z.object({ firstPage: latency, deepPage: latency }),
  postWhileReading: z.object({
    votes: z.number().int(),
    latencyMs: latency,
    errors: z.number().int(),
    readerRequests: z.number().int(),
    readerLatencyMs: latency,
    readerErrors: z.number().int(),
  }),
  ingest: z.object({
    votes: z.number().int(),
    concurrency: z.number().int(),
    votesPerSecond: z.number(),
    latencyMs: latency,
    errors: z.number().int(),
  }),
  exports: z.array(
    z.object({
      votes: z.number().int(),
      seconds: z.number(),
      bytes: z.number().int(),
      peakRssMiB: z.number(),
      baseRssMiB: z.number(),
    }),
  ),
  /** The large bundle from a second server whose V8 heap is capped below the bundle's size (PostgreSQL). */
  cappedExport: z
    .object({
      heapLimitMiB: z.number(),
      completed: z.boolean(),
      bytes: z.number().int(),
      seconds: z.number(),
    })
    .optional(),
  logPage: latency,
  /** GET /api/members (scale/directory.ts); absent in runs from before the directory. */
  directory: directoryLatency.optional(),
})

/** One vote ingest of the instances comparison: the same votes, signed anew, through a proxy or not. */
/** Mean counts of PostgreSQL's other sessions while votes arrive (harness/sessions.ts). */
const postgresSessions = z.object({
  running: z.number(),
  waitingOnTallyRow: z.number(),
  waitingOnAdvisoryLock: z.number(),
  waitingOnOtherLock: z.number(),
  idleInTransaction: z.number(),
})
const instancesRun = z.object({
  proxy: z.enum(['none', 'HAProxy']),
  instances: z.number().int(),
  votesPerSecond: z.number(),
  latencyMs: latency,
  /** Answers other than 201 (a stored vote), or no answer. */
  errors: z.number().int(),
  /**
   * CPU milliseconds per vote in the window: the API processes summed, PostgreSQL's processes, HAProxy (null
   * without it), and the bench process sending the votes: between them, what the machine's cores did.
   */
  cpuMsPerVote: z.object({
    apiServers: z.number(),
    databaseServer: z.number().nullable(),
    proxy: z.number().nullable(),
    loadGenerator: z.number(),
  }),
  /**
   * The API's sessions in PostgreSQL over the run, sampled every 50 ms (means): running a statement; waiting
   * for a lock: the proposal's tally row (a vote's `select … for update`), an advisory lock (the log's
   * appends take one in turn), any other (a row such as a rate-limit counter); inside a transaction,
   * waiting for the API's next statement.
   */
  postgresSessions,
})
const scaleInstances = z.union([
  z.object({
    database: z.string(),
    cores: z.number().int(),
    votes: z.number().int(),
    concurrency: z.number().int(),
    /** Votes each new instance took (directly, not timed) before the measured runs. */
    warmUpVotes: z.number().int(),
    runs: z.array(instancesRun).min(1),
  }),
  z.object({ skipped: z.string() }),
])
export type ScaleInstances = z.infer<typeof scaleInstances>
export type InstancesRun = z.infer<typeof instancesRun>

const namesResult = z.object({
  addresses: z.number().int(),
  named: z.number().int(),
  seconds: z.number(),
  addressesPerSecond: z.number(),
  /** Reverse names and avatar records resolved. */
  lookups: z.number().int(),
  lookupsPerSecond: z.number(),
  ethCalls: z.number().int(),
  rpcRequests: z.number().int(),
  lookupsPerEthCall: z.number(),
})
export type NamesBenchResult = z.infer<typeof namesResult>

/** One treasury's index catch-up on one database (treasury/sync.ts), checked against the chain by its CSV. */
const treasurySync = z.object({
  transfers: z.number().int(),
  seconds: z.number(),
  transfersPerSecond: z.number(),
  /** The slowest answer to the history's newest row while the index caught up (the server's loop held). */
  longestAnswerMs: z.number(),
  tokenIndexSeconds: z.number(),
  csv: z.object({
    rows: z.number().int(),
    bytes: z.number().int(),
    seconds: z.number(),
    kinds: z.record(z.string(), z.number().int()),
  }),
})
const treasuryResult = z.object({
  transfers: z.number().int(),
  smallTransfers: z.number().int(),
  /** The chain's setup: the Safes, the helper and every round of transfers. */
  setupSeconds: z.number(),
  /** The machine's 1-minute load average when the section started and ended (the figures are timings). */
  loadAverage: z.object({ start: z.number(), end: z.number() }),
  databases: z.array(
    z.union([
      z.object({
        database: z.string(),
        sync: treasurySync,
        history: z.array(
          z.object({
            page: z.enum(['first', 'outgoing', 'deep']),
            path: z.string(),
            requests: z.number().int(),
            latencyMs: latency,
            errors: z.number().int(),
            /** The API process's CPU milliseconds per request over the timed reads. */
            cpuMsPerRequest: z.number(),
          }),
        ),
      }),
      z.object({ database: z.string(), skipped: z.string() }),
    ]),
  ),
  /** The small treasury's server and the page figures: on PGlite, as `npm start` runs. */
  browser: z.object({
    database: z.string(),
    smallSync: treasurySync,
    pageLoads: z.array(
      z.object({ profile: z.enum(['desktop', 'phone']), transfers: z.number().int(), shownMs: spread }),
    ),
    js: z
      .object({
        overview: jsSize.extend({ list: z.array(z.string()) }),
        treasuryOnly: jsSize.extend({ list: z.array(z.string()) }),
        leakedToOverview: z.array(z.string()),
      })
      .nullable(),
    failures: z.array(z.string()),
  }),
})
export type TreasuryBenchResult = z.infer<typeof treasuryResult>

/** The discussion section (issue 24): a proposal's thread of 10,000 comments beside one of 10. */
const discussionResult = z.object({
  comments: z.number().int(),
  smallComments: z.number().int(),
  /** The bench's own work before any timing: the comments' and posts' signatures. */
  setupSeconds: z.object({ signing: z.number() }),
  /** The machine's 1-minute load average when the section started and ended (the figures are timings). */
  loadAverage: z.object({ start: z.number(), end: z.number() }),
  databases: z.array(
    z.union([
      z.object({
        database: z.string(),
        /** The bulk seed of the large and small threads (keys, comments, versions, log entries). */
        seedSeconds: z.number(),
        firstPage: z.object({
          items: z.number().int(),
          bytes: z.number().int(),
          gzipBytes: z.number().int(),
          readers: z.object({
            concurrency: z.number().int(),
            requests: z.number().int(),
            latencyMs: latency,
            errors: z.number().int(),
            /** The API process's CPU milliseconds per read over the timed reads (PostgreSQL's own not counted). */
            cpuMsPerRequest: z.number(),
          }),
        }),
        /** Comments POSTed over HTTP by signed-in members with their authorised keys. */
        posting: z.object({
          comments: z.number().int(),
          concurrency: z.number().int(),
          commentsPerSecond: z.number(),
          latencyMs: latency,
          /** Answers other than 201 (or no answer), and the first of them: a rate of refusals is no figure. */
          errors: z.number().int(),
          /** The API process's CPU milliseconds per comment over the posts (PostgreSQL's own not counted). */
          cpuMsPerComment: z.number(),
          firstError: z.string().optional(),
        }),
      }),
      z.object({ database: z.string(), skipped: z.string() }),
    ]),
  ),
  /** The proposal page until its thread shows, on PGlite (as `npm start` runs). */
  browser: z.object({
    database: z.string(),
    pageLoads: z.array(
      z.object({ profile: z.enum(['desktop', 'phone']), comments: z.number().int(), shownMs: spread }),
    ),
    failures: z.array(z.string()),
  }),
})
export type DiscussionBenchResult = z.infer<typeof discussionResult>

/** The ranked-choice section (issue 25): one proposal whose ballots each rank its 20 choices. */
const rankedChoiceResult = z.object({
  ballots: z.number().int(),
  choices: z.number().int(),
  /** Signing the ballots before any timing; 0 when the signatures came from the cache. */
  setupSeconds: z.object({ signing: z.number() }),
  loadAverage: z.object({ start: z.number(), end: z.number() }),
  databases: z.array(
    z.union([
      z.object({
        database: z.string(),
        seedSeconds: z.number(),
        /** settleRankedResult in the bench's process, on the database the server then reads. */
        settle: z.object({
          rounds: z.number().int(),
          winners: z.array(z.number().int()),
          outcome: z.string(),
          /** Milliseconds per settle, the first one storing the result. */
          ms: spread,
          /** The stored result (core's TallyJson with its rounds), bytes of JSON. */
          resultBytes: z.number().int(),
          /**
           * The bench process's resident memory (on PGlite its database's too) and its JS heap in use, before
           * the first settle and at their highest during them.
           */
          rssMiB: z.object({ base: z.number(), peak: z.number() }),
          heapMiB: z.object({ base: z.number(), peak: z.number() }),
        }),
        /** GET /api/proposals/:id, the proposal with its settled result. */
        detail: z.object({ bytes: z.number().int(), gzipBytes: z.number().int() }),
        readers: z.object({
          concurrency: z.number().int(),
          requests: z.number().int(),
          latencyMs: latency,
          meanMs: z.number(),
          /** Answers other than 200, or no answer. */
          errors: z.number().int(),
          /** The API process's CPU milliseconds per read over the timed reads (PostgreSQL's own not counted). */
          cpuMsPerRequest: z.number(),
        }),
        /** The API process's resident memory after the timed reads. */
        serverRssMiB: z.number(),
        /** The same readers while a vote arrives every second, each making the stored result stale. */
        whileVoting: z.object({
          votes: z.number().int(),
          voteLatencyMs: latency,
          /** Answers other than 201, or no answer. */
          voteErrors: z.number().int(),
          reads: z.number().int(),
          readLatencyMs: latency,
          readMeanMs: z.number(),
          readErrors: z.number().int(),
          /** The first answer other than 200 / 201 (or the first request with none): a rate of errors is no figure. */
          firstError: z.string().optional(),
        }),
      }),
      z.object({ database: z.string(), skipped: z.string() }),
    ]),
  ),
})
export type RankedChoiceBenchResult = z.infer<typeof rankedChoiceResult>

const skipped = z.object({ skipped: z.string() })

/** The closing-hour section (issue 26): one hot proposal's votes, its live watchers, sign-in, the server's start. */
const closingHourRun = z.object({
  /** "PostgreSQL, 1 instance", "PostgreSQL, 3 instances behind HAProxy", "PGlite, 1 instance". */
  setup: z.string(),
  database: z.enum(['PostgreSQL', 'PGlite']),
  instances: z.number().int(),
  votes: z.number().int(),
  concurrency: z.number().int(),
  votesPerSecond: z.number(),
  latencyMs: latency,
  /** Answers other than 201, or no answer; the first of them. */
  errors: z.number().int(),
  firstError: z.string().optional(),
  /** CPU milliseconds per vote over the timed votes: the API processes summed, PostgreSQL's, the bench's. */
  cpuMsPerVote: z.object({
    apiServers: z.number(),
    databaseServer: z.number().nullable(),
    loadGenerator: z.number(),
  }),
  /** PostgreSQL only; `waitingOnAnyLock` is the sum of the three waits. */
  postgresSessions: postgresSessions.extend({ waitingOnAnyLock: z.number() }).nullable(),
  /**
   * From each instance's /metrics (METRICS_PORT) before and after the timed votes: the log lock's hold and
   * wait summed over the appending transactions, per vote accepted meanwhile.
   */
  logLock: z.union([
    z.object({
      acceptedVotes: z.number().int(),
      transactions: z.number().int(),
      holdMsPerVote: z.number(),
      waitMsPerVote: z.number(),
    }),
    skipped,
  ]),
  /** Streams open on the proposal during the timed votes (the PostgreSQL 1-instance run only). */
  live: z
    .union([
      z.object({
        streams: z.number().int(),
        /** Streams refused, cut or ended before the bench closed them. */
        lost: z.number().int(),
        firstLoss: z.string().optional(),
        /** The API process's resident memory before the streams opened and with all of them open, before the votes. */
        apiRssMiB: z.object({ before: z.number(), open: z.number() }),
        rssKiBPerStream: z.number(),
        tallyFrames: z.number().int(),
        /**
         * Per vote, until the last stream read a tally at or past its log entry: from its 201 read by the bench
         * (after its commit: errs low) and from its POST sent (before its commit: errs high).
         */
        delayMs: z.object({ fromAnswer: latency, fromSend: latency }),
        /** Votes some stream never saw a tally including (within the wait after the last answer). */
        unseenVotes: z.number().int(),
      }),
      skipped,
    ])
    .optional(),
})
const closingHourLine = z.object({
  budget: z.string(),
  /** null: not measured in this run (`note` says why). */
  value: z.number().nullable(),
  limit: z.number(),
  unit: z.string(),
  /** at least (≥) or at most (≤) the limit. */
  direction: z.enum(['min', 'max']),
  pass: z.boolean().nullable(),
  note: z.string().optional(),
})
const closingHourResult = z.object({
  voters: z.number().int(),
  concurrency: z.number().int(),
  cores: z.number().int(),
  cpu: z.string(),
  loadAverage: z.object({ start: z.number(), end: z.number() }),
  setupSeconds: z.object({ signing: z.number(), holders: z.number() }),
  /** Checks per second of one core's CPU time, in the bench's process, one thread. */
  floors: z.object({
    voteChecksPerCoreSecond: z.number(),
    signInChecksPerCoreSecond: z.number(),
    samples: z.number().int(),
  }),
  runs: z.array(z.union([closingHourRun, skipped.extend({ setup: z.string() })])),
  signIn: z.union([
    z.object({
      accounts: z.number().int(),
      concurrency: z.number().int(),
      verifiesPerSecond: z.number(),
      latencyMs: latency,
      errors: z.number().int(),
      apiCpuMsPerVerify: z.number(),
      /** PostgreSQL's and the bench's own CPU over the timed verifies (runs of record before 2026-11-29 lack them). */
      databaseCpuMsPerVerify: z.number().nullable().optional(),
      loadGeneratorCpuMsPerVerify: z.number().optional(),
    }),
    skipped,
  ]),
  serverStart: z.union([
    z.object({
      /** build's measureServerStart: median of 3, spawn → listening, RSS and the process's CPU then. */
      tsx: z.object({ startMs: z.number(), rssMiB: z.number(), cpuMs: z.number().optional() }),
      built: z.object({ startMs: z.number(), rssMiB: z.number(), cpuMs: z.number().optional() }),
    }),
    skipped,
  ]),
  budget: z.array(closingHourLine),
  totalSeconds: z.number(),
})
export type ClosingHourResult = z.infer<typeof closingHourResult>
export type ClosingHourRun = z.infer<typeof closingHourRun>
export type ClosingHourLine = z.infer<typeof closingHourLine>

export const benchJsonSchema = z.object({
  date: z.string(),
  chromium: z.string().optional(),
  /** When each section was last measured (a run of some sections keeps the others' figures). */
  sections: z.record(z.string(), z.string()),
  bundle: z
    .object({ loadedAtPageLoad: jsSize, loadedConnected: jsSize, staticGraph: jsSize, allJs: jsSize })
    .optional(),
  pages: z.record(z.enum(['desktop', 'phone']), pageTimings).optional(),
  network: z
    .object({
      disconnected: networkAtLoad,
      connected: networkAtLoad,
      idleConnected: rpcCount.extend({
        seconds: z.number(),
        postsPerMinute: z.number(),
        callsPerMinute: z.number(),
      }),
    })
    .optional(),
  references: z.object({ rainbowkit: reference, floor: reference }).optional(),
  budget: z.array(budgetLine).optional(),
  lighthouse: z.object({ lighthouseVersion: z.string(), runs: z.array(lighthouseRun).min(1) }).optional(),
  governance: governanceResult.optional(),
  names: namesResult.optional(),
  signIn: z
    .object({
      accountsPerRun: z.number().int(),
      databases: z.array(
        z.union([
          z.object({ database: z.string(), runs: z.array(signInRun).min(1) }),
          z.object({ database: z.string(), skipped: z.string() }),
        ]),
      ),
    })
    .optional(),
  scale: z
    .object({
      holders: z.number().int(),
      votes: z.number().int(),
      setupSeconds: z.object({ signing: z.number(), holders: z.number() }),
      databases: z.array(z.union([scaleRun, z.object({ database: z.string(), skipped: z.string() })])),
      browser: z.object({
        database: z.string(),
        pageLoads: z.array(
          z.object({ profile: z.enum(['desktop', 'phone']), votes: z.number().int(), resultsMs: spread }),
        ),
        recount: z
          .object({ seconds: z.number(), outcome: z.string(), progressSeen: z.array(z.string()) })
          .nullable(),
        failures: z.array(z.string()),
      }),
      /** Vote ingest on PostgreSQL with 1 instance directly, 1 behind HAProxy and 3 behind HAProxy. */
      instances: scaleInstances,
    })
    .optional(),
  treasury: treasuryResult.optional(),
  discussion: discussionResult.optional(),
  rankedChoice: rankedChoiceResult.optional(),
  closingHour: closingHourResult.optional(),
})
