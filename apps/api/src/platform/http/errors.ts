// The API's one error type: services and routes throw it, the error handler (platform/http/error-handler.ts) answers
// it as { error: code, message } with its status and, for a 503, a Retry-After.

/** A refusal the client is told about: HTTP status, a stable code and a sentence. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message)
  }

  static badRequest(message: string): ApiError {
    return new ApiError(400, 'bad_request', message)
  }

  static unauthenticated(message: string): ApiError {
    return new ApiError(401, 'unauthenticated', message)
  }

  static notFound(message: string): ApiError {
    return new ApiError(404, 'not_found', message)
  }

  static unknownProposal(): ApiError {
    return new ApiError(404, 'unknown_proposal', 'There is no proposal with this id.')
  }

  /** A contract account's signature needs the chain, and it could not be reached. */
  static contractCheckUnavailable(): ApiError {
    return new ApiError(
      503,
      'chain_unavailable',
      'Your wallet is a contract and the chain could not be reached to check it. Try again shortly.',
      5,
    )
  }

  /** The thread checking a signature failed (a worker that crashed is replaced: the next try gets another). */
  static signatureCheckFailed(): ApiError {
    return new ApiError(
      503,
      'signature_check_failed',
      'The signature could not be checked just now. Try again in a moment.',
      1,
    )
  }

  /** A chain read (head, voting power, token holders) got no answer. */
  static chainUnavailable(): ApiError {
    return new ApiError(503, 'chain_unavailable', 'The chain node did not answer. Try again shortly.', 5)
  }

  static databaseUnavailable(message = 'The database does not answer. Try again shortly.'): ApiError {
    return new ApiError(503, 'database_unavailable', message, 5)
  }
}
