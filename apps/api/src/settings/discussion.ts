// The variables of the discussion (ADR 053): the categories a topic may name, and who may post.
import { DISCUSSION_POSTERS } from '@guildhall/core'
import { z } from 'zod'
import { csv } from './csv.ts'

/** The categories a topic may name unless DISCUSSION_CATEGORIES says otherwise. */
const DEFAULT_DISCUSSION_CATEGORIES = ['Ideas', 'Questions', 'General']
/** As long as a proposal's category may be. */
const CATEGORY_MAX_CHARS = 40

export const discussionVariables = z.object({
  /** The categories a topic names, `Ideas,Questions,General` by default; at least one. */
  DISCUSSION_CATEGORIES: z
    .string()
    .default(DEFAULT_DISCUSSION_CATEGORIES.join(','))
    .transform(csv)
    .pipe(
      z
        .array(z.string().max(CATEGORY_MAX_CHARS, `must be at most ${CATEGORY_MAX_CHARS} characters`))
        .min(1, 'must name at least one category')
        .refine((names) => new Set(names).size === names.length, 'lists a category twice'),
    ),
  /** `members` (default): signed-in members with voting power or tokens above zero; `signed-in`: anyone signed in. */
  DISCUSSION_POSTERS: z.enum(DISCUSSION_POSTERS).default('members'),
  /** Discussion writes (keys, topics, comments, reactions) one client (IP) may make per minute. */
  DISCUSSION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
})
