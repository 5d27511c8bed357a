import { agencyApi } from '@aed/contracts/agency'
import { authApi } from '@aed/contracts/auth'
import { callApi as calls } from '@aed/contracts/call'
import { menuApi } from '@aed/contracts/menu'
import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../../../lib/session'
import { orgMenu, tree } from '../../../test/adminFixtures'
import { call } from '../../../test/callFixtures'
import { userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { mockApi, on } from '../../../test/mockApi'
import { renderRoutes } from '../../../test/renderRoutes'

vi.mock('../components/EmergencyMap', () => ({ EmergencyMap: () => <div data-testid="emergency-map" /> }))

function api() {
  return mockApi([
    on(menuApi.menu, () => ({ code: 0, data: orgMenu })),
    on(authApi.memberships, () => ({ code: 0, data: { count: 1, resource: [] } })),
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    on(calls.list, () => ({ code: 0, data: { count: 1, resource: [call()], can: { create: true } } })),
    on(calls.detail, () => ({
      code: 0,
      data: { ...call(), devices: [], responders: [], radius: 1000, timeline: [], dispatch: null },
    })),
  ])
}

freshConsole()

describe('the /emergency/call route', () => {
  it('opens the emergency page for members with the aid_event area, titled 急救事件', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['aid_event'], permissions: { aid_event: 'READ_ONLY' } }))
    renderRoutes('/emergency/call')
    expect(await screen.findByTestId('emergency-page')).toBeInTheDocument()
    await waitFor(() => expect(document.title).toBe('急救事件 - AED远程管理云平台'))
  })

  it('is refused without it', async () => {
    api()
    sessionStore.signIn(userInfo({ permission_list: ['device'], permissions: { device: 'EDIT' } }))
    const { router } = renderRoutes('/emergency/call')
    await waitFor(() => expect(router.state.location.pathname).toBe('/exception/403'))
  })
})
