/**
 * The words of governance a newcomer meets in the app, in plain language: `short` is what a term's
 * explanation shows on hover and focus (the web app's `Term`, and the server's shell of a proposal's page,
 * apps/api/src/web/app-shell.ts), `more` what the glossary page (`/glossary`) adds below it. docs/architecture.md's
 * glossary says the same for developers; a change of meaning there is made here too.
 */
export const GLOSSARY = [
  {
    id: 'voting-power',
    term: 'Voting power',
    short:
      "How much a member's vote weighs: the tokens delegated to them (their own too, once they delegate to themselves), counted at the proposal's snapshot block.",
    more: "Holding tokens is not enough: tokens vote only once they are delegated. A member's share is their voting power out of all the voting power there is.",
  },
  {
    id: 'delegation',
    term: 'Delegation',
    short:
      'Choosing who votes with your tokens: yourself, or another member you trust. You keep your tokens and can change your delegate at any time.',
    more: 'Until you delegate, your tokens give nobody voting power, not even you. Delegating is a transaction on the chain, sent from your wallet; delegating to yourself lets you vote with your own tokens.',
  },
  {
    id: 'delegators',
    term: 'Delegators',
    short: 'The members who have delegated their tokens to this member, who votes with them.',
    more: 'A delegator can take their delegation back, or give it to someone else, at any time.',
  },
  {
    id: 'snapshot-block',
    term: 'Snapshot block',
    short:
      'The moment on the chain at which voting power for a proposal is counted. It is fixed when the proposal is written, so tokens bought or delegated later do not count for it.',
    more: "A block is one of the chain's numbered steps, seconds apart. A proposal's snapshot is one of the last few blocks before it was written, so nobody can pick a convenient moment in the past.",
  },
  {
    id: 'quorum',
    term: 'Quorum',
    short:
      'The voting power that must take part for a proposal to be decided. Below it, the proposal ends with "No quorum", whatever the votes say.',
    more: 'Each proposal keeps the quorum it was written with. Whether Abstain votes count toward it is fixed then too.',
  },
  {
    id: 'proposal-threshold',
    term: 'Proposal threshold',
    short: 'The voting power a member needs, at the snapshot block, to write a proposal.',
    more: 'It keeps the proposals list for members with a stake in the outcome.',
  },
  {
    id: 'participation',
    term: 'Participation',
    short:
      'Of the proposals a member could vote on (they had voting power at the snapshot), how many they did.',
    more: 'A proposal counts once voting power is known for it; a member without voting power then is not counted as absent.',
  },
  {
    id: 'vote',
    term: 'Vote',
    short:
      "A choice on a proposal, with an optional reason, signed by the member's wallet. You can vote again until voting ends: your latest vote is the one that counts.",
    more: 'Every vote is kept, the replaced ones too, so a recount sees exactly what happened.',
  },
  {
    id: 'ranked-choice',
    term: 'Ranked choice',
    short:
      'Each member ranks every choice. Round by round the last choice is eliminated and its ballots move to their next choice, until one holds more than half.',
    more: 'Your full voting power always counts for your highest choice still in the count, so ranking a favourite first never wastes your vote. A tie at the bottom goes to the previous round, then to first preferences; a tie at the top is a tie.',
  },
  {
    id: 'round',
    term: 'Round',
    short:
      'One step of a ranked-choice count: every ballot counts for its highest choice not yet eliminated, then the choice with the least power is eliminated.',
    more: 'Round 1 shows the first preferences. Every round is kept and shown, so you can follow how eliminated choices passed their power on.',
  },
  {
    id: 'weighted-voting',
    term: 'Weighted voting',
    short:
      'Each member splits their voting power across the choices they pick, by whole-number weights, like 70 and 30.',
    more: 'Your parts always add up to your voting power exactly: the last units go to the parts with the largest remainders. Your wallet shows the weights as numbers when you sign.',
  },
  {
    id: 'quadratic-voting',
    term: 'Quadratic voting',
    short:
      "Like weighted voting, but a choice counts the square of the sum of its voters' square roots, so many small holders outweigh one large one.",
    more: 'It is not sybil-resistant: a holder who splits their tokens across several addresses gains power. Use it only where each member holds one address, such as a membership token.',
  },
  {
    id: 'signed-message',
    term: 'Signed message',
    short:
      'Proposals, votes and delegate statements are messages your wallet signs. The signature proves who wrote it; nobody, the server included, can change it without the signature failing.',
    more: 'Signing costs nothing and sends no transaction: it only proves that the message is yours.',
  },
  {
    id: 'digest',
    term: 'Digest',
    short:
      "A fingerprint of a signed message: 0x and 64 letters and digits. Changing anything in the message changes its digest; a proposal's id is its digest.",
    more: 'The same message always has the same digest, so it names the message exactly.',
  },
  {
    id: 'governance-log',
    term: 'Governance log',
    short:
      'The public, numbered record of every proposal, vote and delegate statement accepted here, in order.',
    more: "Each entry carries a fingerprint of the entry before it, so no entry can be changed, removed or slipped in later without it showing. A proposal's result bundle carries its entries, so anyone can check them.",
  },
  {
    id: 'log-entry',
    term: 'Log entry',
    short:
      'One numbered record in the governance log: one accepted proposal, vote, delegate statement or comment. Entry 16 is the sixteenth thing recorded.',
    more: "An entry's number never changes, so it is a lasting way to point at a vote or a statement.",
  },
  {
    id: 'recount',
    term: 'Recount (Verify this result)',
    short:
      "Checking a result yourself: every signature checked again, every voter's voting power read again from the chain, and the votes counted again.",
    more: '"Verify this result" on a proposal\'s page does it in your browser, and the command npm run recount in a terminal. Neither has to trust this server.',
  },
  {
    id: 'result-bundle',
    term: 'Result bundle',
    short:
      'A file with everything needed to recount a proposal: the proposal, every vote and its signature, the snapshot block and the log entries.',
    more: "Download it from the proposal's page and recount it against any copy of the chain.",
  },
  {
    id: 'thread-bundle',
    term: 'Thread bundle',
    short:
      'A file with everything needed to check a discussion: every comment, edit, reaction and moderation with its signature and log entry, and the keys that signed them.',
    more: '"Verify this thread" checks it in your browser, and npm run recount in a terminal. A text the operator removed is reported as removed.',
  },
  {
    id: 'discussion-key',
    term: 'Discussion key',
    short:
      'A key your browser keeps, which your wallet authorised once to sign your comments and reactions, so each one needs no wallet prompt.',
    more: 'It expires within 30 days and you can revoke it beside "Your sessions". It cannot vote, propose, delegate or move funds.',
  },
  {
    id: 'delegate-statement',
    term: 'Delegate statement',
    short: 'What a delegate writes about who they are and how they will vote, signed with their wallet.',
    more: 'Every version is kept in the governance log; the page shows the latest.',
  },
  {
    id: 'safe',
    term: 'Safe',
    short:
      "The DAO's treasury: a shared account on the chain (a Safe contract) that moves money only when enough of its signers approve.",
    more: 'The Treasury page reads it from the chain itself: who signs, how many must, and what it holds. Its history comes from the server’s own index of its events.',
  },
  {
    id: 'safe-signers',
    term: 'Signers',
    short:
      'The accounts that may approve the Safe\'s transactions, and how many of them must: "2 of 3 signers" means any two of three.',
    more: "The signers carry out what the DAO decides; the app shows whether they did. Each signer's name leads to their member page.",
  },
  {
    id: 'safe-nonce',
    term: 'Nonce',
    short:
      "The number of the Safe's next transaction. Each executes once, in order, so two transactions with the same number cannot both happen.",
    more: 'A transaction signed for a number that another one has used can never execute: it must be signed again for a new number.',
  },
] as const satisfies ReadonlyArray<{ id: string; term: string; short: string; more: string }>

export type GlossaryTermId = (typeof GLOSSARY)[number]['id']
export type GlossaryEntry = (typeof GLOSSARY)[number]

/** A term's entry. */
export function glossaryEntry(id: GlossaryTermId): GlossaryEntry {
  return GLOSSARY.find((entry) => entry.id === id) as GlossaryEntry
}

/** Where the glossary page explains a term: its heading's anchor. */
export const glossaryPath = (id: GlossaryTermId) => `/glossary#${id}`
