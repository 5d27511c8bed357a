import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { agencyKeys } from '../features/agency/api/keys'
import { authKeys } from '../features/auth/api/keys'
import { memberKeys } from '../features/member/api/keys'
import { settingsKeys } from '../features/settings/api/keys'

async function invalidated(root: readonly unknown[], keys: (readonly unknown[])[]) {
  const client = new QueryClient()
  for (const key of keys) client.setQueryData(key, {})
  await client.invalidateQueries({ queryKey: root })
  return keys.filter((key) => client.getQueryState(key)?.isInvalidated)
}

describe('query keys', () => {
  it('saving an organisation refreshes the organisations, not the settings', async () => {
    const settings = settingsKeys.detail(1)
    const list = agencyKeys.list({ page: 1 })
    expect(await invalidated(agencyKeys.all, [settings, list, agencyKeys.tree()])).toEqual([
      list,
      agencyKeys.tree(),
    ])
  })

  it('saving a user leaves the signed-in account’s memberships and security alone', async () => {
    const keys = [authKeys.memberships('t'), authKeys.security(), memberKeys.detail(5)]
    expect(await invalidated(memberKeys.all, keys)).toEqual([memberKeys.detail(5)])
  })
})
