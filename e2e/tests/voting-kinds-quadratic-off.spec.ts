// Quadratic voting is the operator's choice (QUADRATIC_VOTING, off by default): with it off, the new
// proposal form does not offer it. A file of its own: its app server runs with the default settings, while
// voting-kinds-ballot.spec.ts turns the setting on.
import { connect, expect, member, test } from '../support/fixtures.ts'

test.use({ walletOptions: { accounts: [member(1)] } })

test('with quadratic voting off (the default) the form offers every other kind, and not Quadratic', async ({
  page,
  app,
}) => {
  await connect(page, app, '/proposals/new')
  await expect(page.getByRole('combobox', { name: 'Voting' }).getByRole('option')).toHaveText([
    'For / Against / Abstain',
    'Single choice',
    'Approval',
    'Ranked choice',
    'Weighted',
  ])
  await expect(page.getByTestId('quadratic-warning')).toHaveCount(0)
})
