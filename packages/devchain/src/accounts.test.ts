import { toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { ANVIL_MNEMONIC, anvilAccounts } from './accounts.ts'

test('default: lists the first 10 accounts of the anvil mnemonic, as viem derives them', () => {
  expect(anvilAccounts).toHaveLength(10)
  for (const [index, listed] of anvilAccounts.entries()) {
    const derived = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index })
    const privateKey = derived.getHdKey().privateKey
    expect(listed).toEqual({ index, address: derived.address, privateKey: privateKey && toHex(privateKey) })
  }
})
