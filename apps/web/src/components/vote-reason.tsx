/** A voter's reason, the same in every list of votes: their own words, set apart from the figures. */
export function VoteReason({ reason }: { reason: string }) {
  return <blockquote className="vote-reason">{reason}</blockquote>
}
