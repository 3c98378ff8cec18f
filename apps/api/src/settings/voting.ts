// The variable of the voting kinds (issue 25): whether proposals may be quadratic. Quadratic voting is not
// sybil-resistant (a holder who splits tokens across addresses gains power), so it is the operator's choice.
import { z } from 'zod'

export const votingVariables = z.object({
  /** `on`: members may create quadratic proposals; `off` (default): such a proposal is refused. */
  QUADRATIC_VOTING: z.enum(['on', 'off']).default('off'),
})
